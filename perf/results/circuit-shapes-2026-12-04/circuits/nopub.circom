pragma circom 2.0.0;
// No public signal at all: nPublic = 0.
template NoPublic() {
    signal input a;
    signal input b;
    signal c;
    signal d;
    c <== a * b;
    d <== c * c;
}
component main = NoPublic();

pragma circom 2.0.0;

// An input used as the index of a var array: circom's C++ output converts it with Fr_toInt, whose fr.asm calls
// Fr_fail for a value that fits no integer. What the in-process generator must turn into an error and survive.
template Index() {
    signal input i;
    signal output out;
    signal square;
    var table[4] = [3, 5, 7, 11];
    out <-- table[i];
    square <== out * out;
}

component main = Index();

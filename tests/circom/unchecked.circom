pragma circom 2.0.0;

// What circom's C++ output leaves unchecked, each taken from an input: an index into a var array (converted by
// Fr_toInt, whose fr.asm calls Fr_fail for a value that fits no int, and not checked against the array's
// bounds), an integer divisor, a recursion's depth, a loop's length and the breadth of a recursion that branches
// without looping; and an assert in a `parallel` component, which circom's code starts on a thread of its own.
// What the in-process generator must turn into that input's error (a loop or a recursion too long for the
// job's time, into its timeout), and survive.
function depth(n) {
    if (n == 0) {
        return 0;
    }
    return depth(n - 1) + 1;
}

// 1, after 2^branches calls.
function fork(branches) {
    if (branches == 0) {
        return 1;
    }
    return fork(branches - 1) * fork(branches - 1);
}

template parallel Divide() {
    signal input d;
    signal input n;
    signal output quotient;
    signal output levels;
    assert(d != 7);
    quotient <-- 1000 \ d;
    levels <-- depth(n);
}

template Unchecked() {
    signal input i;
    signal input d;
    signal input n;
    signal input spins;
    signal input branches;
    signal output out;
    signal output quotient;
    signal output levels;
    signal output spun;
    signal square;
    var table[4] = [3, 5, 7, 11];
    out <-- table[i];
    var left = spins;
    var counted = 0;
    while (left != 0) {
        left = left - 1;
        counted = counted + 1;
    }
    spun <-- counted * fork(branches);
    component divide = Divide();
    divide.d <== d;
    divide.n <== n;
    quotient <== divide.quotient;
    levels <== divide.levels;
    square <== out * out;
}

component main = Unchecked();

// Force-included (g++ -include) into every file of circom's generated code that proofline compiles: the
// sink the circuit's std::cout is redirected to (see witness_shim.cpp), declared before the code uses it.
#pragma once
#include <ostream>
std::ostream& proofline_circom_messages();

// The sources proofline compiles into every circom witness generator (circom/shim/, embedded at build time).
#pragma once

#include <string_view>

namespace proofline::circom::shim {

extern const std::string_view witness_shim_cpp;   ///< the C entry points (shim/witness_shim.cpp)
extern const std::string_view input_signals_hpp;  ///< main's inputs named (shim/input_signals.hpp)
extern const std::string_view assert_h;           ///< assert() that throws (shim/assert.h)
extern const std::string_view prelude_hpp;        ///< force-included declarations (shim/prelude.hpp)
extern const std::string_view input_json_hpp;  ///< input JSON read as snarkjs reads it (shim/input_json.hpp)
extern const std::string_view dat_file_hpp;    ///< the circuit's .dat file read (shim/dat_file.hpp)
extern const std::string_view
    circuit_faults_hpp;  ///< what circom's code leaves unchecked, caught (shim/circuit_faults.hpp)
extern const std::string_view
    wasm_shim_cpp;  ///< the C entry points of a --wasm generator (shim/wasm_shim.cpp)
extern const std::string_view
    wasm_native_fr_c;  ///< native field functions for a --wasm generator (shim/wasm_native_fr.c)

}  // namespace proofline::circom::shim

#pragma once

#include <cstddef>
#include <string>

namespace proofline::capi {

/// Copies `text` and a NUL into out (length bytes); *needed (if given) gets text.size() + 1. Throws
/// PL_ERR_BUFFER_TOO_SMALL when it does not fit (out may then be NULL).
void copy_text(const std::string& text, char* out, std::size_t length, std::size_t* needed);

}  // namespace proofline::capi

// Versioned structs: each starts with its size. A caller built against an older header passes a smaller
// size; fields past it are not read (they keep their defaults) or not written. A size this library does not
// know (larger than its struct, or too small to hold the size itself) is refused.
#pragma once

#include <cstddef>
#include <string>

#include <proofline/capi/detail/boundary.hpp>

namespace proofline::capi {

template <class Struct>
void check_struct_size(const Struct* value, const char* argument) {
  require(value, argument);
  if (value->size < sizeof(std::size_t) || value->size > sizeof(Struct))
    throw_status(PL_ERR_STRUCT_SIZE, std::string(argument) + "->size is " + std::to_string(value->size) +
                                         ": this library knows sizes up to " +
                                         std::to_string(sizeof(Struct)) + " (set it to sizeof the struct)");
}

}  // namespace proofline::capi

/// Whether `field` of *pointer lies wholly within pointer->size bytes.
#define PL_CAPI_HAS_FIELD(pointer, field)                                                                    \
  (offsetof(std::remove_cv_t<std::remove_pointer_t<decltype(pointer)>>, field) + sizeof((pointer)->field) <= \
   (pointer)->size)

#include <proofline/groth16/constraint_builder.hpp>

#include <string>
#include <utility>

#include <proofline/util/error.hpp>

namespace proofline::groth16 {

ConstraintSystemBuilder::ConstraintSystemBuilder(std::uint64_t num_variables, std::uint64_t num_public,
                                                 bool with_c)
    : num_variables_(num_variables), num_public_(num_public), with_c_(with_c) {
  if (num_variables == 0 || num_variables > (std::uint64_t{1} << 32) || num_public >= num_variables)
    throw Error(Errc::invalid_argument, "ConstraintSystemBuilder: " + std::to_string(num_public) +
                                            " public inputs and " + std::to_string(num_variables) +
                                            " variables are not a valid shape");
}

void ConstraintSystemBuilder::check(std::span<const Term> terms, const char* name) const {
  for (const Term& term : terms)
    if (term.variable >= num_variables_)
      throw Error(Errc::invalid_argument, std::string("ConstraintSystemBuilder: a term of ") + name +
                                              " in row " + std::to_string(rows()) + " names variable " +
                                              std::to_string(term.variable) + " of " +
                                              std::to_string(num_variables_));
}

void ConstraintSystemBuilder::Matrix::append(std::span<const Term> terms) {
  for (const Term& term : terms) {
    columns.push_back(term.variable);
    values.push_back(term.coefficient);
  }
  offsets.push_back(columns.size());
}

CsrMatrix ConstraintSystemBuilder::Matrix::take() {
  CsrMatrix out{SharedArray<std::uint64_t>(std::move(offsets)),
                SharedArray<std::uint32_t>(std::move(columns)), SharedArray<Fr>(std::move(values))};
  offsets = {0};
  columns = {};
  values = {};
  return out;
}

void ConstraintSystemBuilder::add(std::span<const Term> a, std::span<const Term> b, std::span<const Term> c) {
  check(a, "A");
  check(b, "B");
  check(c, "C");
  if (!with_c_ && !c.empty())
    throw Error(Errc::invalid_argument, "ConstraintSystemBuilder: C terms in row " + std::to_string(rows()) +
                                            " of a system built without C");
  a_.append(a);
  b_.append(b);
  if (with_c_) c_.append(c);
}

void ConstraintSystemBuilder::add_input_rows() {
  for (std::uint64_t s = 0; s <= num_public_; ++s) {
    const Term term{static_cast<std::uint32_t>(s), Fr::one()};
    add(std::span<const Term>(&term, 1), {}, {});
  }
}

ConstraintSystem ConstraintSystemBuilder::build() {
  ConstraintSystem cs;
  cs.num_variables = num_variables_;
  cs.num_public = num_public_;
  cs.a = a_.take();
  cs.b = b_.take();
  if (with_c_) cs.c = c_.take();
  validate(cs);
  return cs;
}

}  // namespace proofline::groth16

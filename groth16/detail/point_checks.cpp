#include <proofline/groth16/detail/point_checks.hpp>

namespace proofline::groth16::detail {

bool on_curve(const G1Affine& p) {
  return p.is_on_curve();
}
bool on_curve(const G2Affine& p) {
  return p.is_on_curve();
}
bool on_curve(const bn254::G1Affine& p) {
  return p.is_on_curve();
}
bool on_curve(const bn254::G2Affine& p) {
  return p.is_on_curve();
}

bool in_subgroup(const G1Affine& p) {
  return is_in_subgroup(p);
}
bool in_subgroup(const G2Affine& p) {
  return is_in_subgroup(p);
}
bool in_subgroup(const bn254::G1Affine& p) {
  return bn254::is_in_subgroup(p);
}
bool in_subgroup(const bn254::G2Affine& p) {
  return bn254::is_in_subgroup(p);
}

}  // namespace proofline::groth16::detail

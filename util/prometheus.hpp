// Prometheus's text exposition format (version 0.0.4), what a scraper reads from a /metrics endpoint: each
// family's HELP and TYPE lines once, then its samples, `name{label="value",...} number`. The pipeline's
// figures (graph/metrics.hpp) and a fleet worker's own go out through it, and an embedder may append its own
// families to the same page.
#pragma once

#include <cstdint>
#include <initializer_list>
#include <set>
#include <span>
#include <string>
#include <string_view>

namespace proofline {

struct MetricLabel {
  std::string_view name;
  std::string_view value;  ///< any bytes: escaped as the format asks, invalid UTF-8 replaced
};

class PrometheusText {
 public:
  enum class Type { counter, gauge, histogram };

  /// Starts a family: its HELP and TYPE lines. A family's samples follow before the next family starts.
  /// Throws invalid_argument for a name the format does not allow ([a-zA-Z_:][a-zA-Z0-9_:]*), or a family
  /// started twice.
  PrometheusText& family(std::string_view name, Type type, std::string_view help);
  /// One sample of the family last started, or of its _bucket/_sum/_count series for a histogram's.
  PrometheusText& sample(std::string_view name, double value, std::initializer_list<MetricLabel> labels = {});

  /// A family of one sample.
  PrometheusText& counter(std::string_view name, std::string_view help, double value);
  PrometheusText& gauge(std::string_view name, std::string_view help, double value);
  /// The samples of a histogram (after family(name, Type::histogram, ...)): `at_most[i]` observations were
  /// <= `bounds[i]` (cumulative, as the format counts them), `count` in all (the +Inf bucket), `sum` their
  /// total.
  PrometheusText& histogram_samples(std::string_view name, std::span<const double> bounds,
                                    std::span<const std::uint64_t> at_most, std::uint64_t count, double sum,
                                    std::initializer_list<MetricLabel> labels = {});

  const std::string& text() const noexcept { return text_; }
  /// The content type a /metrics response carries.
  static constexpr std::string_view content_type = "text/plain; version=0.0.4; charset=utf-8";

 private:
  /// ` ` alone, or `{a="x",b="y"} ` (with le="..." last when `le` is not empty).
  void append_labels(std::initializer_list<MetricLabel> labels, std::string_view le);
  void append_value(double value);
  std::string text_;
  std::set<std::string, std::less<>> families_;  // started already
  std::string current_;
};

}  // namespace proofline

#include <proofline/util/prometheus.hpp>

#include <charconv>
#include <cmath>

#include <proofline/util/error.hpp>
#include <proofline/util/text.hpp>

namespace proofline {

namespace {

bool valid_name(std::string_view name, bool label) {
  if (name.empty()) return false;
  for (std::size_t i = 0; i < name.size(); ++i) {
    const char c = name[i];
    const bool letter = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' || (!label && c == ':');
    if (!letter && !(i > 0 && c >= '0' && c <= '9')) return false;
  }
  return true;
}

std::string_view type_name(PrometheusText::Type type) {
  switch (type) {
    case PrometheusText::Type::counter:
      return "counter";
    case PrometheusText::Type::gauge:
      return "gauge";
    case PrometheusText::Type::histogram:
      return "histogram";
  }
  return "untyped";
}

/// HELP text escapes \ and newline; label values also ". Invalid UTF-8 becomes U+FFFD (the format is UTF-8).
void append_escaped(std::string& out, std::string_view text, bool quotes) {
  for_each_utf8(
      text,
      [&](unsigned char c) {
        if (c == '\\')
          out += "\\\\";
        else if (c == '\n')
          out += "\\n";
        else if (c == '"' && quotes)
          out += "\\\"";
        else
          out += static_cast<char>(c);
      },
      [&](std::string_view sequence) { out += sequence; }, [&](unsigned char) { out += "\xEF\xBF\xBD"; });
}

}  // namespace

PrometheusText& PrometheusText::family(std::string_view name, Type type, std::string_view help) {
  if (!valid_name(name, false))
    throw Error(Errc::invalid_argument,
                "metric name " + quote_for_message(name) + " is not a Prometheus name");
  if (!families_.emplace(name).second)
    throw Error(Errc::invalid_argument, "metric family " + std::string(name) + " written twice");
  current_ = name;
  text_ += "# HELP ";
  text_ += name;
  text_ += ' ';
  append_escaped(text_, help, false);
  text_ += "\n# TYPE ";
  text_ += name;
  text_ += ' ';
  text_ += type_name(type);
  text_ += '\n';
  return *this;
}

PrometheusText& PrometheusText::sample(std::string_view name, double value,
                                       std::initializer_list<MetricLabel> labels) {
  // A sample belongs to the family last started: its own name, or a histogram's (or summary's) series.
  const std::string_view suffix = name.substr(std::min(current_.size(), name.size()));
  if (current_.empty() || !name.starts_with(current_) ||
      !(suffix.empty() || suffix == "_bucket" || suffix == "_sum" || suffix == "_count"))
    throw Error(Errc::invalid_argument, "metric sample " + quote_for_message(name) + " outside its family");
  text_ += name;
  append_labels(labels, {});
  append_value(value);
  text_ += '\n';
  return *this;
}

void PrometheusText::append_labels(std::initializer_list<MetricLabel> labels, std::string_view le) {
  if (labels.size() == 0 && le.empty()) {
    text_ += ' ';
    return;
  }
  char separator = '{';
  for (const MetricLabel& label : labels) {
    if (!valid_name(label.name, true) || label.name.starts_with("__") || label.name == "le")
      throw Error(Errc::invalid_argument,
                  "metric label " + quote_for_message(label.name) + " is not allowed");
    text_ += separator;
    separator = ',';
    text_ += label.name;
    text_ += "=\"";
    append_escaped(text_, label.value, true);
    text_ += '"';
  }
  if (!le.empty()) {  // a histogram bucket's bound goes last
    text_ += separator;
    text_ += "le=\"";
    text_ += le;
    text_ += '"';
  }
  text_ += "} ";
}

PrometheusText& PrometheusText::counter(std::string_view name, std::string_view help, double value) {
  return family(name, Type::counter, help).sample(name, value);
}

PrometheusText& PrometheusText::gauge(std::string_view name, std::string_view help, double value) {
  return family(name, Type::gauge, help).sample(name, value);
}

PrometheusText& PrometheusText::histogram_samples(std::string_view name, std::span<const double> bounds,
                                                  std::span<const std::uint64_t> at_most, std::uint64_t count,
                                                  double sum, std::initializer_list<MetricLabel> labels) {
  if (name != current_)
    throw Error(Errc::invalid_argument, "histogram " + quote_for_message(name) + " outside its family");
  if (bounds.size() != at_most.size())
    throw Error(Errc::invalid_argument,
                "histogram " + std::string(name) + ": bounds and counts differ in size");
  for (std::size_t i = 0; i <= bounds.size(); ++i) {
    char le[32] = "+Inf";
    std::size_t le_size = 4;
    if (i < bounds.size())
      le_size = static_cast<std::size_t>(std::to_chars(le, le + sizeof le, bounds[i]).ptr - le);
    text_ += name;
    text_ += "_bucket";
    append_labels(labels, std::string_view(le, le_size));
    append_value(static_cast<double>(i < bounds.size() ? at_most[i] : count));
    text_ += '\n';
  }
  sample(std::string(name) + "_sum", sum, labels);
  return sample(std::string(name) + "_count", static_cast<double>(count), labels);
}

void PrometheusText::append_value(double value) {
  if (std::isnan(value)) {
    text_ += "NaN";
  } else if (std::isinf(value)) {
    text_ += value > 0 ? "+Inf" : "-Inf";
  } else {
    char buffer[32];
    // Shortest round-trip form: counters print as integers (exactly, below 2^53), no exponent for them.
    const auto [end, error] = std::to_chars(buffer, buffer + sizeof buffer, value);
    text_.append(buffer, error == std::errc() ? static_cast<std::size_t>(end - buffer) : 0);
  }
}

}  // namespace proofline

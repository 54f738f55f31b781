// The table and JSON of the GPU benchmarks (bench_gpu, bench_gpu_msm): one row per operation and size with
// its samples, beside sppark's figure on the same GPU model and the model floor, and a check column for rows
// whose result was verified. Host C++ only.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdio>
#include <fstream>
#include <string>
#include <utility>
#include <vector>

#include <proofline/util/error.hpp>

namespace proofline::bench {

struct Row {
  std::string section;
  std::string name;
  unsigned log_n = 0;
  std::vector<double> ms;
  double reference_ms = 0;  // sppark on the same GPU model (0: not measured)
  double floor_ms = 0;      // integer-multiply model floor (0: none)
  std::string includes;
  std::string check = "-";  // closed-form check of the last result

  double median() const {
    std::vector<double> s = ms;
    std::sort(s.begin(), s.end());
    const std::size_t m = s.size() / 2;
    return s.size() % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
  }
};

class Report {
 public:
  static void header() {
    std::printf("%-6s %-34s %5s %10s %10s %10s %5s %10s %8s %10s %6s\n", "sect", "operation", "log_n",
                "median_ms", "min_ms", "max_ms", "runs", "sppark_ms", "vs_spp", "floor_ms", "check");
  }
  void add(Row row) {
    const double med = row.median();
    const double lo = *std::min_element(row.ms.begin(), row.ms.end());
    const double hi = *std::max_element(row.ms.begin(), row.ms.end());
    char reference[32] = "-", ratio[32] = "-", floor[32] = "-";
    if (row.reference_ms > 0) {
      std::snprintf(reference, sizeof reference, "%.3f", row.reference_ms);
      std::snprintf(ratio, sizeof ratio, "%.2fx", row.reference_ms / med);
    }
    if (row.floor_ms > 0) std::snprintf(floor, sizeof floor, "%.2f", row.floor_ms);
    std::printf("%-6s %-34s %5u %10.3f %10.3f %10.3f %5zu %10s %8s %10s %6s\n", row.section.c_str(),
                row.name.c_str(), row.log_n, med, lo, hi, row.ms.size(), reference, ratio, floor,
                row.check.c_str());
    std::fflush(stdout);
    if (row.check == "FAIL") failures_++;
    rows_.push_back(std::move(row));
  }
  void note(const std::string& key, double value) {
    std::printf("note   %s = %.4f\n", key.c_str(), value);
    std::fflush(stdout);
    notes_.emplace_back(key, value);
  }
  int failures() const { return failures_; }
  const Row* find(const std::string& name, unsigned log_n) const {
    for (const Row& r : rows_) {
      if (r.name == name && r.log_n == log_n) return &r;
    }
    return nullptr;
  }

  void write_json(const std::string& path, const std::string& device) const {
    std::ofstream out(path);
    if (!out) throw Error(Errc::io, "cannot write " + path);
    out << "{\n  \"device\": \"" << device << "\",\n  \"notes\": {";
    for (std::size_t i = 0; i < notes_.size(); ++i)
      out << (i ? ", " : "") << "\"" << notes_[i].first << "\": " << notes_[i].second;
    out << "},\n  \"rows\": [\n";
    for (std::size_t i = 0; i < rows_.size(); ++i) {
      const Row& r = rows_[i];
      out << "    {\"section\": \"" << r.section << "\", \"name\": \"" << r.name
          << "\", \"log_n\": " << r.log_n << ", \"median_ms\": " << r.median()
          << ", \"min_ms\": " << *std::min_element(r.ms.begin(), r.ms.end())
          << ", \"max_ms\": " << *std::max_element(r.ms.begin(), r.ms.end()) << ", \"runs\": " << r.ms.size()
          << ", \"sppark_ms\": " << r.reference_ms << ", \"floor_ms\": " << r.floor_ms << ", \"includes\": \""
          << r.includes << "\", \"check\": \"" << r.check << "\", \"samples_ms\": [";
      for (std::size_t k = 0; k < r.ms.size(); ++k) out << (k ? ", " : "") << r.ms[k];
      out << "]}" << (i + 1 < rows_.size() ? "," : "") << "\n";
    }
    out << "  ]\n}\n";
  }

 private:
  std::vector<Row> rows_;
  std::vector<std::pair<std::string, double>> notes_;
  int failures_ = 0;
};

/// The column of a size in the reference tables (2^20, 2^22, 2^24, 2^26), or -1.
inline int size_index(unsigned log_n) {
  switch (log_n) {
    case 20:
      return 0;
    case 22:
      return 1;
    case 24:
      return 2;
    case 26:
      return 3;
    default:
      return -1;
  }
}

}  // namespace proofline::bench

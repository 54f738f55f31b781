#include <proofline/trace/timeline_svg.hpp>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <optional>
#include <ostream>
#include <sstream>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <proofline/util/atomic_file.hpp>
#include <proofline/util/error.hpp>
#include <proofline/util/size.hpp>
#include <proofline/util/text.hpp>

namespace proofline::trace {

namespace {

// Tableau 10: distinct, colour-blind friendly, readable on white.
constexpr const char* palette[] = {"#4e79a7", "#f28e2b", "#e15759", "#76b7b2", "#59a14f",
                                   "#edc948", "#b07aa1", "#ff9da7", "#9c755f", "#bab0ac"};
const char* colour(std::size_t i) {
  return palette[i % 10];
}

constexpr double char_width = 6.6;  // average advance of 12 px sans-serif, for laying out the legend
constexpr double lane_height = 22;
constexpr double extra_row_height = 12;  ///< what each further row of overlapping spans adds to a lane
constexpr double cpu_stack_height = 64;
constexpr double lane_gap = 6;
constexpr double chart_height = 90;

/// Text for XML content and attribute values: escaped, and with characters XML 1.0 forbids (controls, bytes
/// that are not UTF-8) replaced by '?'.
std::string xml(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  const auto ascii = [&](unsigned char c) {
    switch (c) {
      case '&':
        out += "&amp;";
        return;
      case '<':
        out += "&lt;";
        return;
      case '>':
        out += "&gt;";
        return;
      case '"':
        out += "&quot;";
        return;
      case '\'':
        out += "&apos;";
        return;
      default:
        out.push_back(c < 0x20 && c != '\t' && c != '\n' && c != '\r' ? '?' : static_cast<char>(c));
    }
  };
  for_each_utf8(
      text, ascii, [&](std::string_view sequence) { out.append(sequence); },
      [&](unsigned char) { out.push_back('?'); });
  return out;
}

std::string format_double(const char* format, double value) {
  char buffer[64];
  std::snprintf(buffer, sizeof buffer, format, value);
  return buffer;
}

/// Pixel coordinates with two decimals: enough for a crisp picture, short enough for big runs.
std::string px(double v) {
  return format_double("%.2f", v);
}

std::string seconds(double s, int decimals) {
  char buffer[64];
  std::snprintf(buffer, sizeof buffer, "%.*f s", decimals, s);
  return buffer;
}

std::string milliseconds(std::int64_t ns) {
  return format_double("%.3f ms", static_cast<double>(ns) * 1e-6);
}

std::string counter_value(double v, CounterUnit unit) {
  if (unit == CounterUnit::bytes)
    return format_size(v <= 0 ? 0 : static_cast<std::uint64_t>(std::llround(v)));
  return format_double("%g", v);
}

struct Geometry {
  Window window;
  double left = 0;
  double width = 0;
  double x(std::int64_t t) const {
    const double f = static_cast<double>(t - window.begin_ns) / static_cast<double>(window.length_ns());
    return left + std::clamp(f, 0.0, 1.0) * width;
  }
};

struct Lane {
  std::string label;
  std::vector<TrackId> tracks;
  bool cpu_stack = false;
  double y = 0;
  double height = lane_height;
  /// Span lanes: (index in snapshot.spans, row) of the spans drawn, in begin order, and the number of rows.
  std::vector<std::pair<std::size_t, std::size_t>> placed;
  std::size_t rows = 1;
};

/// Spans of a lane that overlap in time go to different rows: each span takes the first row whose last span
/// has ended (the snapshot is in begin order). Work that runs concurrently on one track - the device slots of
/// a GPU share its compute track - is then drawn side by side instead of one piece over another, and the lane
/// grows a little per row.
void place_spans(const Snapshot& snapshot, Lane& lane, const Window& window) {
  std::vector<std::int64_t> row_end;
  for (std::size_t i = 0; i < snapshot.spans.size(); ++i) {
    const Span& span = snapshot.spans[i];
    if (std::find(lane.tracks.begin(), lane.tracks.end(), span.track) == lane.tracks.end()) continue;
    if (span.end_ns <= window.begin_ns || span.begin_ns >= window.end_ns) continue;
    std::size_t row = 0;
    while (row < row_end.size() && row_end[row] > span.begin_ns) ++row;
    if (row == row_end.size())
      row_end.push_back(span.end_ns);
    else
      row_end[row] = span.end_ns;
    lane.placed.emplace_back(i, row);
  }
  lane.rows = std::max<std::size_t>(1, row_end.size());
  lane.height = lane_height + static_cast<double>(lane.rows - 1) * extra_row_height;
}

Window default_window(const Snapshot& snapshot) {
  Window w = extent(snapshot);
  bool any = !snapshot.spans.empty();
  for (const CounterSample& sample : snapshot.counters) {
    w.begin_ns = any ? std::min(w.begin_ns, sample.t_ns) : sample.t_ns;
    w.end_ns = any ? std::max(w.end_ns, sample.t_ns) : sample.t_ns;
    any = true;
  }
  return w;
}

/// Tick spacing of 1, 2 or 5 times a power of ten giving at most about `target` ticks; and the decimals its
/// labels need.
std::pair<double, int> tick_step(double range_s, int target) {
  const double raw = range_s / target;
  const double magnitude = std::pow(10.0, std::floor(std::log10(raw)));
  const double norm = raw / magnitude;
  const double step = (norm <= 1 ? 1 : norm <= 2 ? 2 : norm <= 5 ? 5 : 10) * magnitude;
  const int decimals = std::max(0, static_cast<int>(-std::floor(std::log10(step) + 1e-9)));
  return {step, decimals};
}

void write_span_lane(std::ostream& out, const Snapshot& snapshot, const Lane& lane, const Geometry& g) {
  // Consecutive spans of one stage on one row closer than half a pixel merge into one rectangle: the picture
  // is the same and a long run stays a small file.
  struct Run {
    StageId stage{};
    double x0 = 0, x1 = 0;
    std::size_t count = 0;
    std::int64_t busy_ns = 0;
    std::uint64_t first_job = no_job, last_job = no_job;
    std::int64_t only_duration = 0;
  };
  const double row_height = (lane.height - 2) / static_cast<double>(lane.rows);
  std::vector<std::optional<Run>> runs(lane.rows);
  const auto flush = [&](std::size_t row) {
    std::optional<Run>& run = runs[row];
    if (!run) return;
    std::string tip = snapshot.stages[index(run->stage)];
    if (run->count == 1) {
      if (run->first_job != no_job) tip += " job " + std::to_string(run->first_job);
      tip += ": " + milliseconds(run->only_duration);
    } else {
      tip += ": " + std::to_string(run->count) + " spans";
      if (run->first_job != no_job)
        tip += ", jobs " + std::to_string(run->first_job) + " to " + std::to_string(run->last_job);
      tip += ", " + milliseconds(run->busy_ns) + " busy";
    }
    // Rows after the first leave a 1 px gap above them so neighbouring rows stay apart.
    const double top = lane.y + 1 + static_cast<double>(row) * row_height + (row > 0 ? 1 : 0);
    out << "<rect x=\"" << px(run->x0) << "\" y=\"" << px(top) << "\" width=\""
        << px(std::max(run->x1 - run->x0, 0.5)) << "\" height=\"" << px(row_height - (row > 0 ? 1 : 0))
        << "\" fill=\"" << colour(index(run->stage)) << "\"><title>" << xml(tip) << "</title></rect>\n";
    run.reset();
  };
  for (const auto& [i, row] : lane.placed) {
    const Span& span = snapshot.spans[i];
    const double x0 = g.x(span.begin_ns), x1 = g.x(span.end_ns);
    std::optional<Run>& run = runs[row];
    if (run && run->stage == span.stage && x0 <= run->x1 + 0.5) {
      run->x1 = std::max(run->x1, x1);
      ++run->count;
      run->busy_ns += span.duration_ns();
      if (span.job != no_job) {
        if (run->first_job == no_job) run->first_job = span.job;
        run->last_job = span.job;
      }
      continue;
    }
    flush(row);
    run = Run{span.stage, x0, x1, 1, span.duration_ns(), span.job, span.job, span.duration_ns()};
  }
  for (std::size_t row = 0; row < lane.rows; ++row) flush(row);
}

/// Average number of busy workers per pixel column, per stage, stacked in stage order.
void write_cpu_stack_lane(std::ostream& out, const Snapshot& snapshot, const Lane& lane, const Geometry& g) {
  const std::size_t columns = std::max<std::size_t>(1, static_cast<std::size_t>(g.width));
  const double column_ns = static_cast<double>(g.window.length_ns()) / static_cast<double>(columns);
  std::vector<std::vector<double>> load(snapshot.stages.size());  // in column units: workers * fraction
  std::vector<std::vector<double>> full(snapshot.stages.size());  // difference array of whole columns
  for (const Span& span : snapshot.spans) {
    if (std::find(lane.tracks.begin(), lane.tracks.end(), span.track) == lane.tracks.end()) continue;
    const std::int64_t b = std::max(span.begin_ns, g.window.begin_ns);
    const std::int64_t e = std::min(span.end_ns, g.window.end_ns);
    if (e <= b) continue;
    auto& l = load[index(span.stage)];
    auto& f = full[index(span.stage)];
    if (l.empty()) {
      l.assign(columns, 0.0);
      f.assign(columns + 1, 0.0);
    }
    const double fb = static_cast<double>(b - g.window.begin_ns) / column_ns;
    const double fe = static_cast<double>(e - g.window.begin_ns) / column_ns;
    const std::size_t c0 = std::min(columns - 1, static_cast<std::size_t>(fb));
    const std::size_t c1 = std::min(columns - 1, static_cast<std::size_t>(fe));
    if (c0 == c1) {
      l[c0] += fe - fb;
    } else {
      l[c0] += static_cast<double>(c0 + 1) - fb;
      l[c1] += fe - static_cast<double>(c1);
      f[c0 + 1] += 1.0;
      f[c1] -= 1.0;
    }
  }
  std::vector<double> total(columns, 0.0);
  for (std::size_t s = 0; s < load.size(); ++s) {
    if (load[s].empty()) continue;
    double running = 0;
    for (std::size_t c = 0; c < columns; ++c) {
      running += full[s][c];
      load[s][c] += running;
      total[c] += load[s][c];
    }
  }
  const double peak = std::max(1.0, *std::max_element(total.begin(), total.end()));
  const double bottom = lane.y + lane.height;
  const auto y = [&](double v) { return bottom - v / peak * (lane.height - 2); };
  std::vector<double> base(columns, 0.0);
  for (std::size_t s = 0; s < load.size(); ++s) {
    if (load[s].empty()) continue;
    // Upper edge left to right, then the lower edge back: a step outline per pixel column.
    std::vector<std::pair<double, double>> points;
    const auto add = [&](double px_x, double px_y) {
      if (points.empty() || points.back() != std::pair(px_x, px_y)) points.emplace_back(px_x, px_y);
    };
    for (std::size_t c = 0; c < columns; ++c) {
      const double x0 = g.left + static_cast<double>(c) * g.width / static_cast<double>(columns);
      const double x1 = g.left + static_cast<double>(c + 1) * g.width / static_cast<double>(columns);
      add(x0, y(base[c] + load[s][c]));
      add(x1, y(base[c] + load[s][c]));
    }
    for (std::size_t c = columns; c-- > 0;) {
      const double x0 = g.left + static_cast<double>(c) * g.width / static_cast<double>(columns);
      const double x1 = g.left + static_cast<double>(c + 1) * g.width / static_cast<double>(columns);
      add(x1, y(base[c]));
      add(x0, y(base[c]));
    }
    out << "<path fill=\"" << colour(s) << "\" d=\"";
    for (std::size_t i = 0; i < points.size(); ++i)
      out << (i == 0 ? "M" : "L") << px(points[i].first) << ',' << px(points[i].second);
    out << "Z\"><title>" << xml(snapshot.stages[s]) << " on CPU workers</title></path>\n";
    for (std::size_t c = 0; c < columns; ++c) base[c] += load[s][c];
  }
  out << "<text x=\"" << px(g.left + g.width + 6) << "\" y=\"" << px(lane.y + 14) << "\" fill=\"#555\">peak "
      << format_double("%.1f", peak) << "</text>\n";
}

/// A counter chart's values at one time; each holds until the next point.
struct ChartPoint {
  std::int64_t t;
  std::vector<double> values;
};

/// The chart's values at the window's begin and at every sample time inside it.
std::vector<ChartPoint> chart_points(const Snapshot& snapshot, const CounterChart& chart,
                                     const Window& window) {
  const std::size_t n = chart.tracks.size();
  std::vector<ChartPoint> points{{window.begin_ns, std::vector<double>(n, 0.0)}};
  for (const CounterSample& sample : snapshot.counters) {
    const auto it = std::find(chart.tracks.begin(), chart.tracks.end(), sample.track);
    if (it == chart.tracks.end() || !std::isfinite(sample.value)) continue;
    if (sample.t_ns >= window.end_ns) break;
    if (sample.t_ns > window.begin_ns && points.back().t != sample.t_ns)
      points.push_back({sample.t_ns, points.back().values});
    points.back().values[static_cast<std::size_t>(it - chart.tracks.begin())] = sample.value;
  }
  return points;
}

/// The largest value drawn (the largest sum when stacked); 1 when there is none above zero.
double chart_peak(const std::vector<ChartPoint>& points, bool stacked) {
  double peak = 0;
  for (const ChartPoint& p : points) {
    double sum = 0;
    for (double v : p.values) {
      sum += std::max(v, 0.0);
      peak = std::max(peak, stacked ? sum : v);
    }
  }
  if (!(peak > 0)) peak = 1;
  return peak;
}

/// Vertical placement of a chart's plot: its top, bottom and the value at the top.
struct ChartScale {
  double plot_top = 0;
  double bottom = 0;
  double peak = 1;
  double y(double v) const { return bottom - std::clamp(v / peak, 0.0, 1.0) * chart_height; }
};

/// Title, series legend, plot background and the value labels of a chart.
void write_chart_frame(std::ostream& out, const Snapshot& snapshot, const CounterChart& chart, double top,
                       const ChartScale& scale, const Geometry& g) {
  out << "<text x=\"" << px(g.left) << "\" y=\"" << px(top + 13) << "\" font-weight=\"bold\">"
      << xml(chart.title) << "</text>\n";
  double legend_x = g.left + static_cast<double>(chart.title.size()) * char_width + 24;
  for (std::size_t k = 0; k < chart.tracks.size(); ++k) {
    const std::string& name = snapshot.tracks[index(chart.tracks[k])].name;
    out << "<rect x=\"" << px(legend_x) << "\" y=\"" << px(top + 3) << "\" width=\"12\" height=\"12\" fill=\""
        << colour(k) << "\"/><text x=\"" << px(legend_x + 16) << "\" y=\"" << px(top + 13) << "\">"
        << xml(name) << "</text>\n";
    legend_x += 16 + static_cast<double>(name.size()) * char_width + 18;
  }
  out << "<rect x=\"" << px(g.left) << "\" y=\"" << px(scale.plot_top) << "\" width=\"" << px(g.width)
      << "\" height=\"" << px(chart_height) << "\" fill=\"#fafafa\" stroke=\"#cccccc\"/>\n";
  out << "<text x=\"" << px(g.left - 6) << "\" y=\"" << px(scale.plot_top + 10)
      << "\" text-anchor=\"end\" fill=\"#555\">" << xml(counter_value(scale.peak, chart.unit)) << "</text>\n";
  out << "<text x=\"" << px(g.left - 6) << "\" y=\"" << px(scale.bottom)
      << "\" text-anchor=\"end\" fill=\"#555\">0</text>\n";
}

/// Path data through `pts`, skipping repeated points; starts with a move when `first_move`.
void write_path_points(std::ostream& out, const std::vector<std::pair<double, double>>& pts,
                       bool first_move) {
  std::pair<double, double> last{std::numeric_limits<double>::quiet_NaN(), 0};
  bool move = first_move;
  for (const auto& p : pts) {
    if (p == last) continue;
    out << (move ? "M" : "L") << px(p.first) << ',' << px(p.second);
    move = false;
    last = p;
  }
}

/// Series k of a chart: a step area between its lower and upper levels, and an outline when not stacked.
void write_chart_series(std::ostream& out, const Snapshot& snapshot, const CounterChart& chart, std::size_t k,
                        const std::vector<ChartPoint>& points, const ChartScale& scale, const Geometry& g) {
  const auto level = [&](const ChartPoint& p, bool upper) {
    if (!chart.stacked) return upper ? p.values[k] : 0.0;
    double sum = 0;
    for (std::size_t j = 0; j < k + (upper ? 1 : 0); ++j) sum += std::max(p.values[j], 0.0);
    return sum;
  };
  const double x_end = g.x(g.window.end_ns);
  std::vector<std::pair<double, double>> upper, lower;
  for (std::size_t i = 0; i < points.size(); ++i) {
    const double x0 = g.x(points[i].t);
    const double x1 = i + 1 < points.size() ? g.x(points[i + 1].t) : x_end;
    upper.emplace_back(x0, scale.y(level(points[i], true)));
    upper.emplace_back(x1, scale.y(level(points[i], true)));
    lower.emplace_back(x0, scale.y(level(points[i], false)));
    lower.emplace_back(x1, scale.y(level(points[i], false)));
  }
  const std::string& name = snapshot.tracks[index(chart.tracks[k])].name;
  out << "<path fill=\"" << colour(k) << "\" fill-opacity=\"" << (chart.stacked ? "0.75" : "0.25")
      << "\" d=\"";
  write_path_points(out, upper, true);
  std::reverse(lower.begin(), lower.end());
  write_path_points(out, lower, false);
  out << "Z\"><title>" << xml(name) << "</title></path>\n";
  if (!chart.stacked) {
    out << "<path fill=\"none\" stroke=\"" << colour(k) << "\" stroke-width=\"1.5\" d=\"";
    write_path_points(out, upper, true);
    out << "\"/>\n";
  }
}

/// One counter chart: step areas (stacked or each from zero) over the window.
void write_counter_chart(std::ostream& out, const Snapshot& snapshot, const CounterChart& chart, double top,
                         const Geometry& g) {
  const std::vector<ChartPoint> points = chart_points(snapshot, chart, g.window);
  ChartScale scale;
  scale.plot_top = top + 20;
  scale.bottom = scale.plot_top + chart_height;
  scale.peak = chart_peak(points, chart.stacked);

  out << "<g class=\"counter-chart\">\n";
  write_chart_frame(out, snapshot, chart, top, scale, g);
  for (std::size_t k = 0; k < chart.tracks.size(); ++k)
    write_chart_series(out, snapshot, chart, k, points, scale, g);
  out << "</g>\n";
}

constexpr double to_s = 1e-9;  // nanoseconds to seconds

/// CUDA stream tracks, by GPU.
std::vector<TrackId> streams_by_gpu(const Snapshot& snapshot) {
  std::vector<TrackId> streams = snapshot.tracks_of_kind(TrackKind::cuda_stream);
  std::stable_sort(streams.begin(), streams.end(),
                   [&](TrackId a, TrackId b) { return snapshot.track(a).gpu < snapshot.track(b).gpu; });
  return streams;
}

/// Lanes: CUDA streams by GPU, then CPU workers.
std::vector<Lane> make_lanes(const Snapshot& snapshot, const TimelineOptions& options,
                             const std::vector<TrackId>& streams, const std::vector<TrackId>& workers) {
  std::vector<Lane> lanes;
  for (TrackId t : streams) {
    const TrackInfo& info = snapshot.track(t);
    lanes.push_back(
        Lane{info.gpu >= 0 ? "GPU " + std::to_string(info.gpu) + ": " + info.name : info.name, {t}});
  }
  if (options.cpu_workers && !workers.empty()) {
    if (options.collapse_cpu_workers) {
      Lane lane{"CPU workers (" + std::to_string(workers.size()) + ")", workers, true};
      lane.height = cpu_stack_height;
      lanes.push_back(std::move(lane));
    } else {
      for (TrackId t : workers) lanes.push_back(Lane{snapshot.track(t).name, {t}});
    }
  }
  return lanes;
}

/// Counter charts: the caller's, or every counter track in one chart.
std::vector<CounterChart> make_charts(const Snapshot& snapshot, const TimelineOptions& options) {
  std::vector<CounterChart> charts;
  for (const CounterChart& chart : options.counter_charts) {
    for (TrackId t : chart.tracks)
      if (snapshot.track(t).kind != TrackKind::counter)
        throw Error(Errc::invalid_argument, "timeline: chart '" + chart.title + "' lists '" +
                                                snapshot.track(t).name + "', not a counter track");
    if (!chart.tracks.empty()) charts.push_back(chart);
  }
  if (options.counter_charts.empty()) {
    CounterChart chart{"counters", snapshot.tracks_of_kind(TrackKind::counter), CounterUnit::bytes, false};
    for (TrackId t : chart.tracks)
      if (snapshot.track(t).name.find("bytes") == std::string::npos) chart.unit = CounterUnit::count;
    if (!chart.tracks.empty()) charts.push_back(std::move(chart));
  }
  return charts;
}

struct LegendItem {
  double x, y;
  std::size_t stage;
};

/// The stage legend's items, wrapped to the picture's width, and the baseline of its last row.
struct Legend {
  std::vector<LegendItem> items;
  double last_y = 0;
};

/// Legend: the stages that appear in the window.
Legend layout_legend(const Snapshot& snapshot, const Window& window, double width) {
  std::vector<bool> shown(snapshot.stages.size(), false);
  for (const Span& span : snapshot.spans)
    if (span.end_ns > window.begin_ns && span.begin_ns < window.end_ns) shown[index(span.stage)] = true;
  Legend legend;
  double lx = 16, ly = 56;
  for (std::size_t s = 0; s < shown.size(); ++s) {
    if (!shown[s]) continue;
    const double item_width = 16 + static_cast<double>(snapshot.stages[s].size()) * char_width + 18;
    if (lx + item_width > width - 16 && lx > 16) {
      lx = 16;
      ly += 18;
    }
    legend.items.push_back({lx, ly, s});
    lx += item_width;
  }
  legend.last_y = ly;
  return legend;
}

/// Places each lane's spans and stacks the lanes from `y` down; returns the y below the last lane's gap.
double place_lanes(const Snapshot& snapshot, std::vector<Lane>& lanes, const Window& window, double y) {
  for (Lane& lane : lanes) {
    if (!lane.cpu_stack) place_spans(snapshot, lane, window);
    lane.y = y;
    y += lane.height + lane_gap;
  }
  return y;
}

/// The spans drawn: those that overlap the window.
std::size_t spans_in(const Snapshot& snapshot, const Window& window) {
  return static_cast<std::size_t>(std::count_if(
      snapshot.spans.begin(), snapshot.spans.end(),
      [&](const Span& span) { return span.end_ns > window.begin_ns && span.begin_ns < window.end_ns; }));
}

/// The SVG root, background, title and the line that sums up the window.
void write_svg_header(std::ostream& out, const Snapshot& snapshot, const TimelineOptions& options,
                      double width, double height, const Window& window, std::size_t streams,
                      std::size_t workers, bool nothing) {
  out << "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
      << "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" << px(width) << "\" height=\"" << px(height)
      << "\" viewBox=\"0 0 " << px(width) << ' ' << px(height)
      << "\" font-family=\"Helvetica, Arial, sans-serif\" font-size=\"12\">\n"
      << "<rect width=\"100%\" height=\"100%\" fill=\"#ffffff\"/>\n"
      << "<text x=\"16\" y=\"24\" font-size=\"16\" font-weight=\"bold\">" << xml(options.title)
      << "</text>\n";
  out << "<text x=\"16\" y=\"42\" fill=\"#555\">"
      << xml(format_double("%.3f s", static_cast<double>(window.begin_ns) * to_s) + " to " +
             format_double("%.3f s", static_cast<double>(window.end_ns) * to_s) + " (" +
             format_double("%.3f s", window.seconds()) + "), " + std::to_string(streams) + " GPU streams, " +
             std::to_string(workers) + " CPU workers, " + std::to_string(spans_in(snapshot, window)) +
             " spans" + (nothing ? "; nothing was recorded" : ""))
      << "</text>\n";
}

void write_legend(std::ostream& out, const Snapshot& snapshot, const Legend& legend) {
  out << "<g class=\"legend\">\n";
  for (const LegendItem& item : legend.items)
    out << "<rect x=\"" << px(item.x) << "\" y=\"" << px(item.y - 10)
        << "\" width=\"12\" height=\"12\" fill=\"" << colour(item.stage) << "\"/><text x=\""
        << px(item.x + 16) << "\" y=\"" << px(item.y) << "\">" << xml(snapshot.stages[item.stage])
        << "</text>\n";
  out << "</g>\n";
}

void write_lane(std::ostream& out, const Snapshot& snapshot, const Lane& lane, const Geometry& g) {
  out << "<g class=\"lane\">\n<text x=\"" << px(g.left - 8) << "\" y=\"" << px(lane.y + 15)
      << "\" text-anchor=\"end\">" << xml(lane.label) << "</text>\n"
      << "<rect x=\"" << px(g.left) << "\" y=\"" << px(lane.y) << "\" width=\"" << px(g.width)
      << "\" height=\"" << px(lane.height) << "\" fill=\"#ececec\"><title>idle</title></rect>\n";
  if (lane.cpu_stack) {
    write_cpu_stack_lane(out, snapshot, lane, g);
  } else {
    write_span_lane(out, snapshot, lane, g);
    out << "<text x=\"" << px(g.left + g.width + 6) << "\" y=\"" << px(lane.y + 15) << "\" fill=\"#555\">"
        << format_double("%.0f%%", busy_fraction(snapshot, lane.tracks, g.window) * 100.0) << "</text>\n";
  }
  out << "</g>\n";
}

/// Time axis, with faint grid lines through the lanes.
void write_time_axis(std::ostream& out, const Geometry& g, double lanes_top, double axis_y) {
  const Window& window = g.window;
  const auto [step, decimals] = tick_step(window.seconds(), std::max(2, static_cast<int>(g.width / 110)));
  out << "<g class=\"axis\">\n<line x1=\"" << px(g.left) << "\" y1=\"" << px(axis_y) << "\" x2=\""
      << px(g.left + g.width) << "\" y2=\"" << px(axis_y) << "\" stroke=\"#333\"/>\n";
  const double first_tick = std::ceil(static_cast<double>(window.begin_ns) * to_s / step - 1e-9);
  for (double k = first_tick;; k += 1) {
    const double t_s = k * step;
    const auto t_ns = static_cast<std::int64_t>(std::llround(t_s * 1e9));
    if (t_ns > window.end_ns) break;
    const double x = g.x(t_ns);
    out << "<line x1=\"" << px(x) << "\" y1=\"" << px(lanes_top) << "\" x2=\"" << px(x) << "\" y2=\""
        << px(axis_y + 5) << "\" stroke=\"#000\" stroke-opacity=\"0.12\"/>\n"
        << "<text x=\"" << px(x) << "\" y=\"" << px(axis_y + 18) << "\" text-anchor=\"middle\">"
        << seconds(t_s, decimals) << "</text>\n";
  }
  out << "</g>\n";
}

}  // namespace

void write_timeline_svg(const Snapshot& snapshot, const TimelineOptions& options, std::ostream& out) {
  snapshot.validate();
  const double width = std::max(options.width, 400);
  Window window = options.window.value_or(default_window(snapshot));
  const bool nothing = window.length_ns() == 0;
  if (nothing) window.end_ns = window.begin_ns + 1'000'000;  // an empty run still gets a 1 ms axis
  const Geometry g{window, 200, width - 200 - 70};

  const std::vector<TrackId> streams = streams_by_gpu(snapshot);
  const std::vector<TrackId> workers = snapshot.tracks_of_kind(TrackKind::cpu_worker);
  std::vector<Lane> lanes = make_lanes(snapshot, options, streams, workers);
  const std::vector<CounterChart> charts = make_charts(snapshot, options);
  const Legend legend = layout_legend(snapshot, window, width);

  const double lanes_top = legend.last_y + 26;
  const double y = place_lanes(snapshot, lanes, window, lanes_top);
  const double axis_y = lanes.empty() ? lanes_top : y;
  double chart_top = axis_y + 40;
  const double height = chart_top + static_cast<double>(charts.size()) * (chart_height + 40) + 4;

  write_svg_header(out, snapshot, options, width, height, window, streams.size(), workers.size(), nothing);
  write_legend(out, snapshot, legend);
  for (const Lane& lane : lanes) write_lane(out, snapshot, lane, g);
  write_time_axis(out, g, lanes_top, axis_y);
  for (const CounterChart& chart : charts) {
    write_counter_chart(out, snapshot, chart, chart_top, g);
    chart_top += chart_height + 40;
  }
  out << "</svg>\n";
}

void write_timeline_svg_file(const Snapshot& snapshot, const TimelineOptions& options,
                             const std::string& path) {
  std::ostringstream text;
  write_timeline_svg(snapshot, options, text);
  write_file_atomically(path, text.view());
}

}  // namespace proofline::trace

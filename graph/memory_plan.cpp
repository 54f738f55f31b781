#include <proofline/graph/memory_plan.hpp>

#include <cstdint>

#include <proofline/groth16/json.hpp>
#include <proofline/util/size.hpp>

namespace proofline::graph {

namespace {

namespace json = groth16::json;

json::Value count(std::size_t value) {
  return json::Value(static_cast<std::uint64_t>(value));
}

std::string plural(std::size_t n, const std::string& one, const std::string& many) {
  return std::to_string(n) + " " + (n == 1 ? one : many);
}

}  // namespace

std::string memory_plan_text(const PipelineStats& s) {
  std::string out =
      "memory plan (" + std::string(to_string(s.backend)) + " backend, keys registered, nothing proven):\n";
  out += "host: budget " + format_size(s.host_budget.total) + ", in use " + format_size(s.host_budget.used) +
         "; " + plural(s.host_keys.entries, "key", "keys") + " resident (" +
         format_size(s.host_keys.bytes_resident) + ")\n";
  out += "slots: " + plural(s.token_target, "job", "jobs") + " in flight at once (tokens), each leasing " +
         format_size(s.slot_bytes) + " of pinned memory: up to " +
         format_size(s.slot_bytes * s.token_target) + "; " + format_size(s.pool.bytes_pinned) +
         " pinned now\n";
  for (const GpuStats& gpu : s.gpus)
    out += "gpu " + std::to_string(gpu.device) + " (" + gpu.name + "): VRAM budget " +
           format_size(gpu.vram.total) + ", in use " + format_size(gpu.vram.used) + "; " +
           plural(gpu.keys.entries, "key", "keys") + " resident, MSM tables for " +
           plural(gpu.msm_tables, "query", "queries") + " (" + format_size(gpu.msm_table_bytes) + "), " +
           plural(gpu.device_slots, "device slot", "device slots") +
           (gpu.srs_stream_batches > 0 ? "; keys streamed from host memory" : "") + "\n";
  return out;
}

std::string memory_plan_json(const PipelineStats& s) {
  json::Value gpus = json::Value::array();
  for (const GpuStats& gpu : s.gpus)
    gpus.push_back(json::Value::object({
        {"device", json::Value(static_cast<std::int64_t>(gpu.device))},
        {"name", json::Value(gpu.name)},
        {"vram_budget", json::Value(gpu.vram.total)},
        {"vram_used", json::Value(gpu.vram.used)},
        {"keys", count(gpu.keys.entries)},
        {"key_bytes", json::Value(gpu.keys.bytes_resident)},
        {"msm_tables", count(gpu.msm_tables)},
        {"msm_table_bytes", json::Value(gpu.msm_table_bytes)},
        {"device_slots", count(gpu.device_slots)},
    }));
  const json::Value doc = json::Value::object({
      {"backend", json::Value(std::string(to_string(s.backend)))},
      {"host_budget", json::Value(s.host_budget.total)},
      {"host_used", json::Value(s.host_budget.used)},
      {"host_keys", count(s.host_keys.entries)},
      {"host_key_bytes", json::Value(s.host_keys.bytes_resident)},
      {"slot_bytes", json::Value(s.slot_bytes)},
      {"tokens", count(s.token_target)},
      {"pinned_bytes", json::Value(s.pool.bytes_pinned)},
      {"gpus", std::move(gpus)},
  });
  return json::dump(doc, 2) + "\n";
}

}  // namespace proofline::graph

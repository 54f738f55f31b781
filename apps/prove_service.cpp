#include "prove_service.hpp"

#include <algorithm>
#include <chrono>
#include <cstddef>
#include <span>
#include <variant>

#include <proofline/circom/witness_generator.hpp>
#include <proofline/graph/metrics.hpp>
#include <proofline/groth16/json.hpp>
#include <proofline/groth16/snarkjs_jobs.hpp>
#include <proofline/groth16/snarkjs_json.hpp>
#include <proofline/groth16/wtns.hpp>
#include <proofline/util/path_names.hpp>
#include <proofline/util/prometheus.hpp>
#include <proofline/util/text.hpp>

#include "batch_common.hpp"

namespace proofline::apps {

namespace fs = std::filesystem;

struct ProveService::Key {
  std::string name;
  fs::path zkey;
  groth16::AnySnarkjsKey key;
  CurveId curve = CurveId::bls12_381;
  std::uint64_t num_variables = 0, num_public = 0, domain_size = 0;
  std::shared_ptr<const circom::WitnessGenerator> generator;
  graph::KeyHandle handle;
};

namespace {

/// How long a client is told to wait before it asks again, when the queue is full or the server stops.
constexpr const char* retry_after_seconds = "1";

/// The status a failed job's request is answered with: the CLI's exit 1 (the witness does not satisfy the
/// circuit, the proof does not verify) is 422, its exit 2 (unusable input) 400.
int status_of(const graph::JobError& error) {
  if (error.code == Errc::cancelled || error.code == Errc::timeout) return 503;
  if (error.message.find("does not satisfy") != std::string::npos) return 422;
  if (error.code == Errc::bad_input) return 400;
  return 500;
}

/// A name or path in a message: in single quotes, escaped and cut.
std::string quote_name(std::string_view text) {
  return quote_for_message(text, 200, '\'');
}

/// The curve as snarkjs's files name it ("bn128", "bls12381"): what /keys and the startup line say, so that a
/// key reads as its verification_key.json does.
std::string snarkjs_name(CurveId curve) {
  return with_curve(curve, []<class Curve>() { return std::string(Curve::snarkjs_name); });
}

bool is_wtns(const HttpRequest& request) {
  if (request.body.starts_with("wtns")) return true;
  const std::string* type = request.header("content-type");
  return type != nullptr && type->starts_with("application/octet-stream");
}

/// The request's .wtns as the job's witness: its container and header are checked against the key here, so
/// that a witness of the other curve or circuit never takes a place in the queue; synthesis reads the values
/// straight into the job's slot, checking each.
graph::WtnsImage wtns_body(const std::string& body, const ProveService::Key& key) {
  const auto* bytes = reinterpret_cast<const std::byte*>(body.data());
  graph::WtnsImage witness{
      .image = std::make_shared<const std::vector<std::byte>>(bytes, bytes + body.size()),
      .name = "the request's witness (.wtns)"};
  groth16::read_wtns_header_for(*witness.image, witness.name, key.curve, key.num_variables,
                                "key " + quote_name(key.name));
  return witness;
}

}  // namespace

HttpResponse json_error(int status, const std::string& message) {
  groth16::json::Value body = groth16::json::Value::object({{"error", message}});
  HttpResponse response{status, "application/json", groth16::json::dump(body, -1) + "\n"};
  if (status == 503) response.headers.emplace_back("Retry-After", retry_after_seconds);
  return response;
}

std::vector<std::string> served_key_names(const std::vector<ServedKeySpec>& keys) {
  std::vector<std::string> names(keys.size());
  const auto taken = [&](const std::string& name) { return std::ranges::find(names, name) != names.end(); };
  // Names given first, so that a derived name gives way to one a user chose.
  for (std::size_t i = 0; i < keys.size(); ++i) {
    if (keys[i].name.empty()) continue;
    if (taken(keys[i].name))
      throw UnusableInput("--name " + quote_name(keys[i].name) + " is given to two keys: each needs its own");
    names[i] = keys[i].name;
  }
  for (std::size_t i = 0; i < keys.size(); ++i) {
    if (!keys[i].name.empty()) continue;
    for (const std::string& name : names_from_path(keys[i].zkey))
      if (!taken(name)) {
        names[i] = name;
        break;
      }
    if (names[i].empty())
      throw UnusableInput(quote_name(keys[i].zkey.string()) +
                          " is served twice: give the second one a --name of its own");
  }
  return names;
}

ProveService::ProveService(const CircomBatch& prover, const std::vector<ServedKeySpec>& specs) {
  const std::vector<std::string> names = served_key_names(specs);
  graph::Config config = prover.config;
  bool any_generator = false;
  setup_step([&] {
    for (std::size_t i = 0; i < specs.size(); ++i) {
      auto key = std::make_unique<Key>();
      key->name = names[i];
      key->zkey = specs[i].zkey;
      groth16::ZkeyOptions options{.points = prover.zkey_check};
      options.key_check.tester = graph::subgroup_tester_for(config);
      key->key = groth16::load_any_snarkjs_key(specs[i].zkey, options);
      std::visit(
          [&]<class Curve>(const groth16::BasicSnarkjsKey<Curve>& k) {
            key->curve = Curve::id;
            key->num_variables = k.pk->num_variables;
            key->num_public = k.pk->num_public;
            key->domain_size = std::uint64_t{1} << k.pk->log_domain_size;
          },
          key->key);
      if (specs[i].circuit) {
        key->generator = circom::WitnessGenerator::open(*specs[i].circuit, stoppable(prover.build));
        key->generator->check_curve(key->curve, specs[i].zkey.string());
        key->generator->check_fits(key->num_variables, specs[i].zkey.string());
        any_generator = true;
      }
      keys_.push_back(std::move(key));
    }
  });
  // A generator computes a witness on one thread: let as many jobs synthesize at once as the pipeline has
  // threads, as a batch from input JSON does (circom_batch.cpp).
  if (any_generator && config.synthesis_concurrency == 0)
    config.synthesis_concurrency = graph::thread_plan(config).threads;
  config.on_result = nullptr;  // each request waits on its own job's future
  setup_step([&] {
    pipeline_.emplace(make_batch_pipeline(prover, config));
    for (const auto& key : keys_)
      key->handle = std::visit(
          [&]<class Curve>(const groth16::BasicSnarkjsKey<Curve>& k) {
            return pipeline_->add_key(graph::BasicKeySpec<Curve>{key->name, k.pk, k.cs, k.vk});
          },
          key->key);
  });
}

ProveService::~ProveService() {
  shutdown(true);
}

void ProveService::abort() {
  stopping_ = true;
  aborted_ = true;
  if (pipeline_) {
    pipeline_->cancel_queued();
    pipeline_->cancel_witnesses();
  }
}

void ProveService::shutdown(bool cancel) {
  if (pipeline_) pipeline_->shutdown(cancel ? graph::ShutdownMode::cancel : graph::ShutdownMode::drain);
}

std::string ProveService::describe_keys() const {
  std::string out;
  for (const auto& key : keys_)
    out += (out.empty() ? "" : ", ") + key->name + " (" + snarkjs_name(key->curve) +
           (key->generator ? ", input JSON or .wtns" : ", .wtns only") + ")";
  return out;
}

HttpResponse ProveService::count(HttpResponse response) {
  std::lock_guard lock(counts_mutex_);
  ++responses_[response.status];
  return response;
}

HttpResponse ProveService::handle(const HttpRequest& request) {
  const std::string& path = request.path;
  const auto wrong_method = [&](const char* allowed, const std::string& message) {
    HttpResponse response = json_error(405, message);
    response.headers.emplace_back("Allow", allowed);
    return count(std::move(response));
  };
  if (path == "/prove" || path.starts_with("/prove/")) {
    if (request.method != "POST") return wrong_method("POST", "POST a witness or input JSON to " + path);
    const Key* key = nullptr;
    if (path == "/prove") {
      if (keys_.size() != 1)
        return count(json_error(404, "this server has " + std::to_string(keys_.size()) +
                                         " keys: POST to /prove/NAME (GET /keys lists them)"));
      key = keys_.front().get();
    } else {
      const std::string name = path.substr(7);
      for (const auto& k : keys_)
        if (k->name == name) key = k.get();
      if (key == nullptr)
        return count(json_error(404, "no key named " + quote_name(name) + " (GET /keys lists them)"));
    }
    try {
      return count(prove(*key, request));
    } catch (const std::exception& e) {
      return count(json_error(500, e.what()));
    }
  }
  const bool page = path == "/healthz" || path == "/keys" || path == "/metrics";
  if (!page)
    return count(json_error(
        404, "no such path " + quote_name(path) + " (POST /prove/NAME, GET /keys, /healthz, /metrics)"));
  if (request.method != "GET" && request.method != "HEAD")
    return wrong_method("GET, HEAD", "only GET and HEAD on " + path);
  if (path == "/healthz")
    return count(stopping_ ? json_error(503, "stopping")
                           : HttpResponse{200, "text/plain; charset=utf-8", "serving\n"});
  if (path == "/keys") return count(keys_page());
  return count(metrics_page());
}

HttpResponse ProveService::prove(const Key& key, const HttpRequest& request) {
  // A request on a connection accepted before a stop signal is proven (the server accepts no connection
  // after it); only the second signal refuses what is left.
  if (aborted_) return json_error(503, "the server is stopping");
  graph::Job job{.key = key.handle,
                 .label = "request " + std::to_string(++requests_seen_) + " to " + key.name};
  try {
    if (is_wtns(request)) {
      job.witness = wtns_body(request.body, key);
    } else {
      if (!key.generator)
        return json_error(400, "key " + quote_name(key.name) +
                                   " is served without --circuit: send a .wtns (Content-Type: "
                                   "application/octet-stream), or serve it with its circuit for input JSON");
      // Checked here, without running the circuit, so that a request that cannot be proven never takes a
      // place in the queue; the circuit runs in the pipeline's synthesis, into the job's slot.
      key.generator->check_input(request.body);
      auto input = std::make_shared<const std::string>(request.body);
      graph::WitnessCallback fill{[generator = key.generator, input](const graph::WitnessTarget& t) {
        if (generator->curve() == CurveId::bn254)
          generator->compute_into(*input, t.bn254_z.unchecked(), t.stop);
        else
          generator->compute_into(*input, t.z.unchecked(), t.stop);
      }};
      fill.curve = key.generator->curve();
      job.witness = std::move(fill);
    }
  } catch (const Error& e) {
    return json_error(e.code() == Errc::bad_input ? 400 : 500, e.what());
  }
  std::optional<graph::Submission> submission;
  try {
    submission = pipeline_->try_submit(std::move(job));
  } catch (const Error& e) {
    if (e.code() == Errc::cancelled) return json_error(503, "the server is stopping");
    throw;
  }
  if (!submission) return json_error(503, "the queue is full");
  ++in_flight_;
  struct Done {
    std::atomic<std::uint64_t>& n;
    ~Done() { --n; }
  } done{in_flight_};
  // Polled, so that a second stop signal answers the requests still waiting at once.
  while (submission->result.wait_for(std::chrono::milliseconds(100)) != std::future_status::ready)
    if (aborted_) return json_error(503, "the server stopped before this proof was made");
  const graph::JobResult r = submission->result.get();
  if (r.error) return json_error(status_of(*r.error), r.error->message);
  if (!r.ok()) return json_error(500, "the pipeline gave no proof and no error");
  groth16::json::Value body = groth16::json::Value::object();
  if (r.curve == CurveId::bn254) {
    body.set("proof", groth16::snarkjs_proof_to_json(*r.bn254_proof));
    body.set("publicSignals", groth16::snarkjs_public_to_json(r.bn254_public_inputs));
  } else {
    body.set("proof", groth16::snarkjs_proof_to_json(*r.proof));
    body.set("publicSignals", groth16::snarkjs_public_to_json(r.public_inputs));
  }
  ++proofs_;
  return {200, "application/json", groth16::json::dump(body, -1) + "\n"};
}

HttpResponse ProveService::keys_page() const {
  using groth16::json::Value;
  Value keys = Value::array();
  for (const auto& key : keys_)
    keys.push_back(Value::object({{"name", key->name},
                                  {"curve", snarkjs_name(key->curve)},
                                  {"zkey", key->zkey.string()},
                                  {"variables", key->num_variables},
                                  {"publicSignals", key->num_public},
                                  {"domainSize", key->domain_size},
                                  {"inputJson", key->generator != nullptr}}));
  return {200, "application/json", groth16::json::dump(Value::object({{"keys", keys}}), 1) + "\n"};
}

HttpResponse ProveService::metrics_page() {
  PrometheusText page;
  page.family("proofline_serve_responses_total", PrometheusText::Type::counter,
              "HTTP responses by status (proof requests and the others)");
  {
    std::lock_guard lock(counts_mutex_);
    for (const auto& [status, n] : responses_) {
      const std::string code = std::to_string(status);
      page.sample("proofline_serve_responses_total", static_cast<double>(n), {{"status", code}});
    }
  }
  page.counter("proofline_serve_proofs_total", "proofs answered (each verified first)",
               static_cast<double>(proofs_.load()));
  page.gauge("proofline_serve_in_flight", "proof requests submitted and not yet answered",
             static_cast<double>(in_flight_.load()));
  page.gauge("proofline_serve_keys", "keys served", static_cast<double>(keys_.size()));
  graph::append_metrics(page, pipeline_->stats());
  return {200, std::string(PrometheusText::content_type), page.text()};
}

}  // namespace proofline::apps

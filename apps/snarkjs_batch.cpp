#include "snarkjs_batch.hpp"

#include <filesystem>

#include "batch_common.hpp"
#include "circom_batch.hpp"

namespace proofline::apps {

int run_snarkjs(const BatchOptions& o) {
  check_outputs_writable(o);
  CircomBatch batch;
  batch.program = "batch_prove";
  batch.zkey = *o.zkey;
  batch.zkey_check = o.zkey_check;
  // Without --out the witnesses are proved (and timed) but nothing is kept; their names must still differ.
  batch.make_jobs = [&o] {
    std::vector<CircomJobSpec> jobs =
        jobs_into_dir(o.wtns, false, o.out.value_or(std::filesystem::path(".")));
    if (!o.out)
      for (CircomJobSpec& job : jobs) {
        job.proof.clear();
        job.public_inputs.clear();
      }
    return jobs;
  };
  batch.config = o.config;
  // batch_prove refuses a batch with an unusable witness before proving anything (exit 2), as it always has;
  // `proofline batch` fails only that job.
  batch.fail_fast = true;
  batch.progress = o.progress;
  batch.full_summary = true;
  batch.log_level = o.log_level;
  batch.fault = o.fault;
  batch.report = o.report;
  batch.plan_only = o.plan;
  batch.trace = o.trace;
  return run_circom_batch(batch);
}

}  // namespace proofline::apps

/* Proves a small batch through libproofline's C ABI and checks every proof with the library's verifier.
 *
 *   prove_batch KEY.zkey WITNESS.wtns VERIFICATION_KEY.json [COUNT]
 *
 * The key is snarkjs's, of curve bls12381 or bn128 (BN254): the program asks the key for its curve and
 * gives the scalars as that curve's.
 *
 * Jobs come from the .wtns file (read into the pinned slot), from its values as scalars in memory, and from a
 * witness callback; results by blocking wait and by completion callback. It then shows one error path: a key
 * file that is not a key. Exit status 0 when every proof verifies. */
#include <proofline.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Reports a failed call: its status name and the library's message for this thread. */
static void report(const char* call, pl_status status) {
  fprintf(stderr, "%s failed: %s: %s\n", call, pl_status_name(status), pl_last_error_message());
}

/* On a failure: report it, and go to the function's `done:` label, which releases what it holds. Never
 * exit() from here: jobs in flight would go on running (and calling back into this program's memory) while
 * the process tears itself down. */
#define CHECK(call)          \
  do {                       \
    status = (call);         \
    if (status != PL_OK) {   \
      report(#call, status); \
      goto done;             \
    }                        \
  } while (0)

/* The values of a .wtns file (version 2): section 2 holds n scalars of 32 bytes, canonical little-endian. */
static unsigned char* read_wtns_values(const char* path, size_t* count) {
  FILE* file = fopen(path, "rb");
  unsigned char header[12], section[12];
  unsigned char* values = NULL;
  if (file == NULL || fread(header, 1, 12, file) != 12 || memcmp(header, "wtns", 4) != 0) goto done;
  while (fread(section, 1, 12, file) == 12) {
    unsigned long long size = 0;
    int i;
    for (i = 0; i < 8; ++i) size |= (unsigned long long)section[4 + i] << (8 * i);
    if (section[0] == 2) {
      values = malloc((size_t)size);
      if (values != NULL && fread(values, 1, (size_t)size, file) == size) {
        *count = (size_t)size / PL_SCALAR_BYTES;
      } else {
        free(values);
        values = NULL;
      }
      break;
    }
    if (fseek(file, (long)size, SEEK_CUR) != 0) break;
  }
done:
  if (file != NULL) fclose(file);
  return values;
}

struct witness {
  const unsigned char* values;
  size_t count;
};

/* A witness callback: writes z straight into the job's pinned slot, in two bounds-checked pieces. */
static pl_status fill_witness(pl_witness_target* target, void* user_data) {
  const struct witness* w = (const struct witness*)user_data;
  uint64_t z_length = 0;
  size_t half = w->count / 2;
  pl_status status = pl_witness_sizes(target, &z_length, NULL, NULL);
  if (status != PL_OK) return status;
  if (z_length != w->count) {
    pl_witness_fail(target, "the witness does not fit this key");
    return PL_ERR_INVALID_ARGUMENT;
  }
  status = pl_witness_write(target, PL_VECTOR_Z, 0, w->values, half);
  if (status != PL_OK) return status;
  return pl_witness_write(target, PL_VECTOR_Z, half, w->values + half * PL_SCALAR_BYTES, w->count - half);
}

/* A completion callback: counts the results (it runs on a pipeline thread). */
static void count_result(pl_job* job, void* user_data) {
  (void)job;
  __atomic_add_fetch((int*)user_data, 1, __ATOMIC_SEQ_CST);
}

/* Checks a finished job's proof every way its curve has: its uncompressed points (384 bytes for BLS12-381,
 * 256 bytes of EIP-197 points for BN254), BLS12-381's 192-byte encoding, and snarkjs's JSON. PL_OK when the
 * proof verifies every way, else the first failure's status (reported). */
static pl_status check_proof(pl_job* job, const pl_vk* vk, int32_t curve) {
  uint8_t proof[PL_PROOF_BYTES];
  uint8_t points[PL_PROOF_UNCOMPRESSED_BYTES_BLS12_381];
  uint8_t* inputs = NULL;
  size_t num_public = 0, proof_size = 0, public_size = 0, points_size = 0;
  char *proof_json = NULL, *public_json = NULL;
  pl_status status;
  CHECK(pl_job_outcome(job));
  /* The count of public inputs first (a NULL buffer holds none), then the inputs. */
  status = pl_job_public_inputs(job, NULL, 0, &num_public);
  if (status != PL_ERR_BUFFER_TOO_SMALL) CHECK(status);
  inputs = malloc(num_public * PL_SCALAR_BYTES + 1);
  if (inputs == NULL) CHECK(PL_ERR_IO);
  CHECK(pl_job_public_inputs(job, inputs, num_public * PL_SCALAR_BYTES, &num_public));
  CHECK(pl_job_proof_uncompressed(job, points, sizeof points, &points_size));
  CHECK(pl_verify_uncompressed(vk, points, points_size, inputs, num_public));
  if (curve == PL_CURVE_BLS12_381) {
    CHECK(pl_job_proof(job, proof, sizeof proof));
    CHECK(pl_verify(vk, proof, sizeof proof, inputs, num_public));
  }
  /* Ask for the sizes first, then fetch the texts. */
  status = pl_job_proof_json(job, NULL, 0, &proof_size);
  if (status != PL_ERR_BUFFER_TOO_SMALL) CHECK(status);
  status = pl_job_public_json(job, NULL, 0, &public_size);
  if (status != PL_ERR_BUFFER_TOO_SMALL) CHECK(status);
  proof_json = malloc(proof_size);
  public_json = malloc(public_size);
  if (proof_json == NULL || public_json == NULL) CHECK(PL_ERR_IO);
  CHECK(pl_job_proof_json(job, proof_json, proof_size, NULL));
  CHECK(pl_job_public_json(job, public_json, public_size, NULL));
  CHECK(pl_verify_json(vk, proof_json, public_json));
done:
  free(inputs);
  free(proof_json);
  free(public_json);
  return status;
}

int main(int argc, char** argv) {
  pl_config config;
  pl_pipeline* pipeline = NULL;
  pl_key* key = NULL;
  pl_key* bad_key = NULL;
  pl_vk* vk = NULL;
  pl_job* jobs[64] = {NULL};
  pl_job_options options;
  pl_stats stats;
  struct witness w;
  int32_t curve = PL_CURVE_BLS12_381;
  int count = argc > 4 ? atoi(argv[4]) : 6, submitted = 0, i, verified = 0, callbacks = 0;
  pl_status status = PL_OK, bad_status = PL_OK;

  if (argc < 4 || count < 3 || count > 64) {
    fprintf(stderr, "usage: %s KEY.zkey WITNESS.wtns VERIFICATION_KEY.json [COUNT 3..64]\n", argv[0]);
    return 2;
  }
  if (pl_abi_version() != PL_ABI_VERSION) {
    fprintf(stderr, "libproofline has ABI %d, this program was built for %d\n", pl_abi_version(),
            PL_ABI_VERSION);
    return 1;
  }
  w.values = read_wtns_values(argv[2], &w.count);
  if (w.values == NULL) {
    fprintf(stderr, "%s: not a .wtns file\n", argv[2]);
    return 2;
  }
  stats.size = sizeof stats;

  CHECK(pl_config_default(&config, sizeof config));
  config.backend = PL_BACKEND_CPU;
  config.host_budget_bytes = (uint64_t)1 << 30;
  CHECK(pl_pipeline_create(&config, &pipeline));
  CHECK(pl_key_add_zkey_file(pipeline, argv[1], NULL, &key));
  CHECK(pl_key_curve(key, &curve));
  CHECK(pl_vk_load_json_file(argv[3], &vk));

  memset(&options, 0, sizeof options);
  options.size = sizeof options;
  options.on_complete = count_result;
  options.user_data = &callbacks;
  for (submitted = 0; submitted < count; ++submitted) {
    pl_job** job = &jobs[submitted];
    if (submitted % 3 == 0) CHECK(pl_submit_wtns(pipeline, key, argv[2], &options, job));
    if (submitted % 3 == 1)
      CHECK(pl_submit_scalars_curve(pipeline, key, curve, w.values, w.count, &options, job));
    if (submitted % 3 == 2)
      CHECK(pl_submit_callback(pipeline, key, fill_witness, &w, PL_FILLS_WITNESS, &options, job));
  }
  for (i = 0; i < count; ++i) {
    CHECK(pl_job_wait(jobs[i], -1));
    status = check_proof(jobs[i], vk, curve);
    if (status != PL_OK) goto done;
    ++verified;
    status = pl_job_release(jobs[i]);
    jobs[i] = NULL;
    CHECK(status);
  }

  /* The error path: a file that is not a key. The code and the message come back; nothing aborts. */
  bad_status = pl_key_add_zkey_file(pipeline, argv[3], NULL, &bad_key);
  printf("bad key: %s: %s\n", pl_status_name(bad_status), pl_last_error_message());

  CHECK(pl_pipeline_stats(pipeline, &stats));
  CHECK(pl_pipeline_shutdown(pipeline, PL_SHUTDOWN_DRAIN));

done:
  /* Every way out comes here, and nothing the jobs use goes before their pipeline: on a failure, the queued
   * jobs are cancelled and the running ones finish; pl_pipeline_destroy returns once every completion
   * callback has run (they count into `callbacks`) and no witness callback reads `w` any more. */
  if (pipeline != NULL) {
    if (status != PL_OK) pl_pipeline_shutdown(pipeline, PL_SHUTDOWN_CANCEL);
    pl_pipeline_destroy(pipeline);
  }
  for (i = 0; i < submitted; ++i)
    if (jobs[i] != NULL) pl_job_release(jobs[i]);
  if (key != NULL) pl_key_release(key);
  if (vk != NULL) pl_vk_release(vk);
  free((void*)w.values);
  if (status != PL_OK) {
    fprintf(stderr, "stopped early: %d jobs submitted, %d completion callbacks, pipeline destroyed\n",
            submitted, __atomic_load_n(&callbacks, __ATOMIC_SEQ_CST));
    return 1;
  }

  printf(
      "libproofline %s: %s key: %d proofs, %d verified, %d callbacks, %llu pinned bytes leased after the "
      "batch\n",
      pl_version(), curve == PL_CURVE_BN254 ? "bn128" : "bls12381", count, verified, callbacks,
      (unsigned long long)stats.pinned_bytes_leased);
  return verified == count && callbacks == count && bad_status == PL_ERR_BAD_INPUT && bad_key == NULL ? 0 : 1;
}

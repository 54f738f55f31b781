/* proofline.h: the C ABI of proofline, batch Groth16 proving on BLS12-381 and BN254 (snarkjs's bn128)
 * (libproofline.so.1).
 *
 * C99, no C++ needed. Everything is reached through opaque handles the library hands out:
 *   pl_pipeline  the prover (a flow graph, a pinned-memory pool, the GPUs or the CPU backend)
 *   pl_key       a proving key registered with one pipeline (snarkjs .zkey or proofline's native files)
 *   pl_job       one submitted proof: its state, then its result (a proof or an error)
 *   pl_vk        a verifying key, to check proofs (from a pl_key or from snarkjs's verification_key.json)
 *
 * Conventions (docs/c-abi.md has the full text):
 * - Every function returns a pl_status (PL_OK = 0) unless it says otherwise. On an error the calling
 *   thread's pl_last_error_message() says what went wrong. No C++ exception, abort or signal ever crosses
 *   this boundary on bad input: every entry point catches everything.
 * - Ownership: a handle returned through an out parameter belongs to the caller, who gives it back with the
 *   matching *_release / pl_pipeline_destroy exactly once. Handles are ids checked against a registry: a
 *   NULL, foreign or already released handle returns PL_ERR_INVALID_HANDLE, never a crash. Buffers passed in
 *   are only read during the call (the library copies what it keeps); buffers passed out are the caller's.
 * - Threads: every function may be called from any thread, concurrently, unless its comment says otherwise.
 *   Not from a child process forked after a pipeline was made (it has none of the pipeline's threads):
 *   there every call returns PL_ERR_INVALID_ARGUMENT.
 *   Callbacks (completion and witness) run on pipeline threads; from inside one, submit (which never waits
 *   there: a full queue takes the job past its bound), cancel, poll and the result accessors work, while
 *   calls that wait for the pipeline (destroy, shutdown, drain, pl_key_add_*, pl_key_release, a pl_job_wait
 *   with a non-zero timeout) return PL_ERR_IN_CALLBACK instead of deadlocking.
 * - Versioned structs: pl_config, pl_job_options, pl_key_options, pl_job_info, pl_stats and pl_gpu_stats
 *   start with their size (set it to sizeof the struct). A smaller size from a caller built against an
 *   older header is accepted: fields past it take their defaults (inputs) or are not written (outputs). A
 *   size larger than this library knows is refused with PL_ERR_STRUCT_SIZE.
 * - Scalars cross the boundary as canonical (not Montgomery) little-endian 32-byte integers below the
 *   scalar field's modulus r of the key's curve (pl_curve): BLS12-381's, or BN254's for a bn128 key. The
 *   functions that predate BN254 and take no curve (pl_submit_scalars, pl_verify) mean BLS12-381's.
 */
#ifndef PROOFLINE_H
#define PROOFLINE_H

#include <stddef.h>
#include <stdint.h>

#if defined(_WIN32)
#define PL_API
#elif defined(__GNUC__)
#define PL_API __attribute__((visibility("default")))
#else
#define PL_API
#endif

#ifdef __cplusplus
extern "C" {
#endif

/* ---- versions ------------------------------------------------------------------------------------------ */

/** The ABI this header describes; the shared library's SONAME is libproofline.so.<PL_ABI_VERSION>. */
#define PL_ABI_VERSION 1
#define PL_VERSION_MAJOR 0
#define PL_VERSION_MINOR 1
#define PL_VERSION_PATCH 0

/** The library's version, "MAJOR.MINOR.PATCH". Static storage; any thread. */
PL_API const char* pl_version(void);
/** The library's ABI version: compare with PL_ABI_VERSION to catch a mismatched library. Any thread. */
PL_API int pl_abi_version(void);

/* ---- status codes -------------------------------------------------------------------------------------- */

typedef enum pl_status {
  PL_OK = 0,
  PL_ERR_INVALID_ARGUMENT = 1,  /**< an argument or option that makes no sense */
  PL_ERR_BAD_INPUT = 2,         /**< a truncated, corrupt, wrong-curve or unreadable input */
  PL_ERR_OUT_OF_BUDGET = 3,     /**< a memory budget cannot hold the request */
  PL_ERR_IO = 4,                /**< the operating system refused a read, write or allocation */
  PL_ERR_CUDA = 5,              /**< a CUDA call failed, or no usable GPU for the CUDA backend */
  PL_ERR_CANCELLED = 6,         /**< the job was cancelled */
  PL_ERR_TIMEOUT = 7,           /**< the job's deadline passed */
  PL_ERR_INTERNAL = 8,          /**< a bug in proofline */
  PL_ERR_NULL_POINTER = 9,      /**< a required pointer argument is NULL */
  PL_ERR_INVALID_HANDLE = 10,   /**< NULL, foreign, or already released handle */
  PL_ERR_STRUCT_SIZE = 11,      /**< a versioned struct's size field is too small or larger than known */
  PL_ERR_BUFFER_TOO_SMALL = 12, /**< an output buffer is too small; the needed size was written */
  PL_ERR_NOT_READY = 13,        /**< the job has no result yet (poll, or a wait that timed out) */
  PL_ERR_QUEUE_FULL = 14,       /**< pl_submit_* with PL_SUBMIT_NO_WAIT found the queue full */
  PL_ERR_IN_CALLBACK = 15,      /**< a call that waits for a pipeline, made in any pipeline's callback */
  PL_ERR_SHUT_DOWN = 16,        /**< the pipeline is shut down: it accepts no more jobs */
  PL_ERR_PROOF_INVALID = 17,    /**< pl_verify*: the proof does not verify (the message says why) */
  PL_ERR_NOT_CANCELLABLE = 18   /**< pl_job_cancel: the job is past its witness or done */
} pl_status;

/** A constant name for a status ("PL_ERR_BAD_INPUT"); "PL_UNKNOWN" for other values. Any thread. */
PL_API const char* pl_status_name(pl_status status);

/** What went wrong in the last call on this thread that returned an error (or, after pl_job_outcome, the
 * job's own error message). Never NULL; "" before any error. Owned by the library, valid until the next call
 * into the library on this thread. Calls that succeed leave it unchanged (like errno). */
PL_API const char* pl_last_error_message(void);

typedef enum pl_log_level {
  PL_LOG_TRACE = 0,
  PL_LOG_DEBUG = 1,
  PL_LOG_INFO = 2, /**< the default: one line per key registered, warnings and errors */
  PL_LOG_WARN = 3,
  PL_LOG_ERROR = 4,
  PL_LOG_OFF = 5
} pl_log_level;

/** The level of the library's log lines (to stderr, or to the sink of pl_set_log_sink; process-wide). Any
 * thread. */
PL_API pl_status pl_set_log_level(int32_t level);

/** A log sink: one of the library's log lines, its pl_log_level (PL_LOG_TRACE to PL_LOG_ERROR) and its text
 * (NUL-terminated, no timestamp, level or newline; valid during the call only), with the user_data given to
 * pl_set_log_sink. */
typedef void (*pl_log_fn)(int32_t level, const char* message, void* user_data);

/** Sends the library's log lines (process-wide, every pipeline's) to `sink` instead of stderr, those at
 * min_level (a pl_log_level) and above, as pl_set_log_level sets it; sink = NULL restores stderr (at
 * min_level). Lines reach the sink one at a time, from whichever thread logs: pipeline threads, and the
 * thread of a pl_ call that logs (pl_pipeline_create, pl_key_add_*). The sink must return promptly and must
 * not call into the library (a line may be logged while the library holds its own locks; pl_status_name,
 * pl_version and pl_abi_version are safe): calls that wait for the pipeline, and pl_set_log_sink, return
 * PL_ERR_IN_CALLBACK there, and a line logged from inside the sink goes to stderr instead of into it again.
 * Any other thread may call this at any time: once it returns (replacing the sink or removing it) the
 * previous sink is never called again (it waits for a line being written there), so its user_data may then
 * be freed. Remove the sink before the program's runtime can no longer take calls (a Python interpreter
 * exiting). Errors: PL_ERR_INVALID_ARGUMENT (min_level). */
PL_API pl_status pl_set_log_sink(pl_log_fn sink, void* user_data, int32_t min_level);

/* ---- curves -------------------------------------------------------------------------------------------- */

/** The curve of a key, a job's result or a verifying key: what its scalars are reduced by and how its
 * proofs are encoded. */
typedef enum pl_curve {
  PL_CURVE_BLS12_381 = 0, /**< snarkjs "bls12381" (circom --prime bls12381) */
  PL_CURVE_BN254 = 1      /**< snarkjs "bn128" (circom's default prime; Ethereum's alt_bn128) */
} pl_curve;

/* ---- configuration ------------------------------------------------------------------------------------- */

typedef enum pl_backend { PL_BACKEND_AUTO = 0, PL_BACKEND_CPU = 1, PL_BACKEND_CUDA = 2 } pl_backend;
typedef enum pl_mode { PL_MODE_PINNED = 0, PL_MODE_BASELINE = 1 } pl_mode;
typedef enum pl_srs_placement { PL_SRS_AUTO = 0, PL_SRS_VRAM = 1, PL_SRS_HOST = 2 } pl_srs_placement;
typedef enum pl_pinning {
  PL_PINNING_DEFAULT = 0, /**< cudaHostRegister with a GPU, else host pages */
  PL_PINNING_HOST = 1,    /**< mmap + touch + mlock where permitted (no GPU needed) */
  PL_PINNING_CUDA_REGISTER = 2,
  PL_PINNING_CUDA_ALLOC = 3
} pl_pinning;

/** How a pipeline is built (graph::Config). Zero values mean "automatic" where the comment says so; get
 * the defaults with pl_config_default(&config, sizeof config). */
typedef struct pl_config {
  size_t size;                /**< sizeof(pl_config) */
  int32_t backend;            /**< pl_backend; default PL_BACKEND_AUTO */
  int32_t mode;               /**< pl_mode; default PL_MODE_PINNED */
  uint64_t host_budget_bytes; /**< 0: what this process may use */
  uint64_t vram_budget_bytes; /**< per GPU; 0: free memory less a margin */
  /** CUDA devices to use (read during pl_pipeline_create); NULL: all. Ignored by PL_BACKEND_CPU; with
   * PL_BACKEND_AUTO and no usable GPU, a list is refused (PL_ERR_CUDA). */
  const int32_t* gpus;
  size_t num_gpus;
  uint32_t slots;                 /**< pinned slots in flight; 0: automatic */
  uint32_t device_slots;          /**< per GPU; 0: automatic (up to 8 for small jobs, 4 for large) */
  uint32_t synthesis_concurrency; /**< most jobs synthesized at once (ramped up to); 0: half the threads
                                       (a witness callback that runs on one thread wants max_threads) */
  uint32_t max_threads;           /**< threads of the pipeline's arena; 0: every hardware thread */
  uint32_t max_log_n;             /**< CUDA: device slots sized for 2^max_log_n rows; 0: the first key's (a
                                       larger key added later is then refused: give the largest here) */
  int32_t srs_placement;          /**< pl_srs_placement; default PL_SRS_AUTO */
  int32_t pinning;                /**< pl_pinning; default PL_PINNING_DEFAULT */
  int32_t prewarm;                /**< pin each new largest key's slots up front; default 1 */
  int32_t verify;                 /**< verify every proof before delivering it; default 0 */
  int32_t check_witness;          /**< check every row after synthesis; default 1 */
  int32_t in_order;               /**< deliver results in submission order; default 0 */
  uint32_t queue_capacity;        /**< jobs waiting for a slot before submit blocks; default 1024 */
  uint64_t job_timeout_ms;        /**< fail a job not done this long after submission; 0 (or a century and
                                       more, UINT64_MAX included): no limit */
  uint64_t key_idle_timeout_ms;   /**< idle keys become evictable after this; default 300000 (0: at once;
                                       a century and more: never for being idle) */
  /** CUDA backend, pinned mode: a key registered with its constraint system keeps it in VRAM and the GPU
   * makes its jobs' a, b, c from z (only z is copied); 0: the host evaluates them, and the pinned slots are
   * prewarmed for all four vectors (for callbacks that fill a, b, c themselves); default 1 */
  int32_t gpu_evaluate;
  /** keys in VRAM keep precomputed-window MSM tables beside their points, dropped (B2's first) where VRAM is
   * short; default 1 */
  int32_t msm_tables;
  uint32_t msm_table_bits; /**< those tables' window width, 8..22 bits; 0: the MSM engine's model */
  /** jobs of equal priority take turns between keys, each key's share in proportion to its jobs' rows,
   * instead of going in submission order (another key's next job then waits behind at most one more job of
   * a backlog, not the whole backlog); default 0 */
  int32_t keys_take_turns;
} pl_config;

/** Fills the fields of *config that lie within `size` bytes with their defaults and sets config->size =
 * size. PL_ERR_STRUCT_SIZE when size is smaller than the size field or larger than sizeof(pl_config). */
PL_API pl_status pl_config_default(pl_config* config, size_t size);

/* ---- pipeline ------------------------------------------------------------------------------------------ */

typedef struct pl_pipeline pl_pipeline;
typedef struct pl_key pl_key;
typedef struct pl_job pl_job;
typedef struct pl_vk pl_vk;

/** Builds a pipeline from *config (NULL: every default). The caller owns *out and destroys it with
 * pl_pipeline_destroy. Errors: PL_ERR_STRUCT_SIZE, PL_ERR_INVALID_ARGUMENT (unusable options), PL_ERR_CUDA
 * (the CUDA backend asked for and no device usable), PL_ERR_OUT_OF_BUDGET. */
PL_API pl_status pl_pipeline_create(const pl_config* config, pl_pipeline** out);

typedef enum pl_shutdown_mode {
  PL_SHUTDOWN_DRAIN = 0, /**< finish every submitted job */
  PL_SHUTDOWN_CANCEL = 1 /**< cancel the queued jobs (their result: PL_ERR_CANCELLED), finish running ones */
} pl_shutdown_mode;

/** Stops accepting jobs, then drains or cancels as `mode` says, and waits until every result is delivered
 * (every completion callback has returned) and no pinned byte is leased. Idempotent. Not from a callback.
 * From the moment it begins, before it waits for anything (a key release, jobs), every submit and key
 * registration, for any key and from any thread, is refused with PL_ERR_SHUT_DOWN at once, and submits
 * waiting for room in the queue return with it. */
PL_API pl_status pl_pipeline_shutdown(pl_pipeline* pipeline, int32_t mode);
/** Waits until every job submitted so far has its result. Not from a callback. */
PL_API pl_status pl_pipeline_drain(pl_pipeline* pipeline);
/** Cancels every queued job; *cancelled (may be NULL) gets how many. */
PL_API pl_status pl_pipeline_cancel_queued(pl_pipeline* pipeline, size_t* cancelled);
/** Shuts the pipeline down with PL_SHUTDOWN_DRAIN (unless it was shut down already: jobs in flight finish
 * and their callbacks run before this returns), releases its memory and GPUs, and invalidates the handle.
 * While it runs, the handle refuses submits and key registrations with PL_ERR_SHUT_DOWN (as
 * pl_pipeline_shutdown does) and a second destroy with PL_ERR_INVALID_HANDLE; once it has returned, every
 * call with the handle gets PL_ERR_INVALID_HANDLE.
 * Its pl_key handles stay valid until released (they no longer prove); its pl_job handles keep their
 * results until released. From inside one of the pipeline's callbacks: PL_ERR_IN_CALLBACK, nothing done. */
PL_API pl_status pl_pipeline_destroy(pl_pipeline* pipeline);

/** Live figures (graph::PipelineStats); set stats->size = sizeof(pl_stats) first. */
typedef struct pl_stats {
  size_t size;
  int32_t backend;    /**< pl_backend in use (never AUTO) */
  int32_t mode;       /**< pl_mode */
  uint64_t submitted; /**< jobs accepted */
  uint64_t refused;   /**< PL_SUBMIT_NO_WAIT submissions refused by a full queue */
  uint64_t proofs;    /**< results with a proof */
  uint64_t failed;    /**< results with an error (cancelled and timed out included) */
  uint64_t cancelled;
  uint64_t timed_out;
  uint64_t verified;
  uint64_t queue_depth;         /**< jobs waiting for a pinned slot */
  uint64_t in_flight;           /**< jobs past the queue, not yet delivered */
  uint64_t slots_in_flight;     /**< pinned slots leased by jobs now */
  uint64_t pinned_bytes;        /**< pinned by the pool now, leased or idle */
  uint64_t pinned_bytes_leased; /**< pinned bytes leased by jobs now: 0 after pl_pipeline_drain */
  uint64_t pinned_bytes_idle;
  uint64_t pinned_high_water;
  uint64_t pin_calls;
  uint64_t pin_calls_since_warm; /**< 0 in a steady state */
  uint64_t host_budget_total;
  uint64_t host_budget_used;
  uint64_t gpus; /**< GPUs in use (0 on the CPU backend) */
} pl_stats;

PL_API pl_status pl_pipeline_stats(pl_pipeline* pipeline, pl_stats* stats);

/** One GPU of a pipeline: what its VRAM holds (the device-slot plan, the resident keys and their MSM tables)
 * and what it did. Versioned: set size first. */
typedef struct pl_gpu_stats {
  size_t size;
  int32_t device;        /**< CUDA device ordinal */
  int32_t healthy;       /**< 0 after a CUDA error that killed its context: no job is routed there any more */
  uint64_t jobs;         /**< jobs routed to it so far */
  uint64_t device_slots; /**< jobs bound to it at once, each with its own compute stream */
  uint64_t device_slots_in_use; /**< of those, bound now */
  uint64_t vram_budget;         /**< bytes */
  uint64_t vram_used;
  uint64_t vram_high_water;
  uint64_t keys_resident;    /**< proving keys whose SRS is in its VRAM now */
  uint64_t key_loads;        /**< SRS uploads so far (each key's first, again after an eviction, and again
                                  with fewer or more MSM tables when keys make room for each other) */
  uint64_t key_evictions;    /**< keys evicted to make room for others */
  uint64_t msm_tables;       /**< queries of the resident keys with precomputed-window MSM tables */
  uint64_t msm_table_bytes;  /**< their VRAM beyond the points themselves */
  uint64_t srs_stream_bytes; /**< SRS bytes streamed from host memory for keys not resident in VRAM */
} pl_gpu_stats;

/** GPU `index` of the pipeline, 0 to pl_stats.gpus - 1 in the order of pl_config.gpus (all GPUs: by
 * ordinal). PL_ERR_INVALID_ARGUMENT for an index past the last GPU (any index on the CPU backend). */
PL_API pl_status pl_pipeline_gpu_stats(pl_pipeline* pipeline, size_t index, pl_gpu_stats* stats);

/** The pipeline's figures as Prometheus metrics (text format 0.0.4): jobs by outcome, proof latency
 * histograms, jobs per stage, tokens, the pinned pool, the host budget and keys, each GPU; every name starts
 * with proofline_. For a prover's own /metrics page. NUL-terminated in out; *needed (may be NULL) gets the
 * size including the NUL; PL_ERR_BUFFER_TOO_SMALL when length is less (out may then be NULL). */
PL_API pl_status pl_pipeline_metrics(pl_pipeline* pipeline, char* out, size_t length, size_t* needed);

/* ---- keys ---------------------------------------------------------------------------------------------- */

typedef enum pl_point_check {
  /** every query point on its curve and in the subgroup (keys of unknown origin). The subgroup check is
   * remembered by the key's content digest in $XDG_CACHE_HOME/proofline/checked-keys (~/.cache/... without
   * it; set XDG_CACHE_HOME to move it; where it cannot be written, nothing is remembered): a later load of
   * the same points skips it. */
  PL_POINTS_FULL = 0,
  PL_POINTS_ON_CURVE = 1, /**< on the curve only (about 20 times cheaper) */
  PL_POINTS_TRUSTED = 2   /**< structure and header points only: a key you made or checked before */
} pl_point_check;

typedef struct pl_key_options {
  size_t size; /**< sizeof(pl_key_options) */
  /** Unique among the pipeline's keys. NULL or "": from the file, its stem ("circuit_final"), or where a key
   * holds that, the stem under as many of its folders as tell it apart ("alice/circuit_final"); "key-N" for a
   * key from memory. */
  const char* name;
  int32_t point_check; /**< pl_point_check; default PL_POINTS_FULL */
  /** CUDA devices (among pl_config.gpus) that hold its SRS and prove its jobs, read during the call; NULL:
   * every GPU. Two keys on two GPUs, one each, stay resident side by side and their jobs go to their GPU.
   * PL_ERR_INVALID_ARGUMENT for a device the pipeline does not use or one named twice, or any on the CPU
   * backend. */
  const int32_t* gpus;
  size_t num_gpus;
} pl_key_options;

/** Loads and registers a snarkjs Groth16 key (.zkey of curve bls12381 or bn128, as its header says; see
 * pl_key_curve) with `pipeline`; options may be NULL.
 * Blocks while the key is read, checked and made resident (on a GPU where other keys' MSM tables must give
 * way, also while their jobs in flight finish: at most 30 s, their new submits waiting meanwhile). The caller
 * owns *out (pl_key_release). Errors:
 * PL_ERR_BAD_INPUT naming the file and the problem, PL_ERR_IO, PL_ERR_OUT_OF_BUDGET, PL_ERR_INVALID_ARGUMENT
 * (a name already registered, or no name given for a file whose key is registered already without one). */
PL_API pl_status pl_key_add_zkey_file(pl_pipeline* pipeline, const char* path, const pl_key_options* options,
                                      pl_key** out);
/** The same from a .zkey image in memory (copied; `data` is only read during the call). */
PL_API pl_status pl_key_add_zkey_memory(pl_pipeline* pipeline, const void* data, size_t length,
                                        const pl_key_options* options, pl_key** out);
/** Registers a key in proofline's native format (BLS12-381 keys only): a proving-key file, a
 * constraint-system file (NULL: none, then only PL_FILLS_WITNESS_AND_ABC callbacks can prove with it) and a
 * verifying-key file (NULL: the one the proving-key file carries, if any). The a, b, c such callbacks write
 * are checked through the proof: with pl_config.check_witness on, a key without a verifying key refuses
 * them at submit (PL_ERR_INVALID_ARGUMENT). */
PL_API pl_status pl_key_add_native_files(pl_pipeline* pipeline, const char* proving_key_path,
                                         const char* constraint_system_path, const char* verifying_key_path,
                                         const pl_key_options* options, pl_key** out);
/** The same from native file images in memory (copied); cs_data may be NULL (cs_length 0). */
PL_API pl_status pl_key_add_native_memory(pl_pipeline* pipeline, const void* pk_data, size_t pk_length,
                                          const void* cs_data, size_t cs_length,
                                          const pl_key_options* options, pl_key** out);
/** The circuit's sizes: witness length (z[0] = 1 included), public inputs (not counting z[0]), domain. Each
 * out pointer may be NULL. */
PL_API pl_status pl_key_sizes(const pl_key* key, uint64_t* num_variables, uint64_t* num_public,
                              uint64_t* domain_size);
/** A new handle on the key's verifying key (PL_ERR_INVALID_ARGUMENT when the key has none); caller owns it.
 */
PL_API pl_status pl_key_verifying_key(const pl_key* key, pl_vk** out);
/** The key's curve (a pl_curve) into *curve. */
PL_API pl_status pl_key_curve(const pl_key* key, int32_t* curve);
/** The name the key goes by in log lines, traces, metrics and errors: pl_key_options.name, or the one
 * derived from its file (or "key-N"). NUL-terminated in out; *needed (may be NULL) gets the size including
 * the NUL; PL_ERR_BUFFER_TOO_SMALL when length is less (out may then be NULL). */
PL_API pl_status pl_key_name(const pl_key* key, char* out, size_t length, size_t* needed);
/** Unregisters the key once no queued or running job uses it (waits for that: their results may still be
 * on their way to their handles and callbacks) and releases the handle. Not from a callback. A submit on
 * another thread that races it is either accepted before it (this call then waits for that job too) or
 * refused with PL_ERR_INVALID_HANDLE saying that the key was released. */
PL_API pl_status pl_key_release(pl_key* key);

/* ---- jobs ---------------------------------------------------------------------------------------------- */

/** Called once per job when its result is ready, on a pipeline thread, with the handle submit returned and
 * the user_data given at submission. The caller still owns the handle: while it holds it, the result
 * accessors work inside the call, and pl_job_release(job) there is allowed. A handle released before the
 * call (fire and forget) reports PL_ERR_INVALID_HANDLE to every accessor there: keep it until the callback
 * has read what it needs. Keep it short: it holds a worker. An exception thrown from it (a C++ caller) is
 * caught and logged. */
typedef void (*pl_completion_fn)(pl_job* job, void* user_data);

enum {
  PL_SUBMIT_NO_WAIT = 1 /**< refuse with PL_ERR_QUEUE_FULL instead of waiting while the queue is full */
};

typedef struct pl_job_options {
  size_t size;                  /**< sizeof(pl_job_options) */
  int32_t priority;             /**< higher is admitted first; default 0 */
  uint32_t flags;               /**< PL_SUBMIT_* bits */
  const char* label;            /**< copied; named in the job's error message and trace; may be NULL */
  uint64_t timeout_ms;          /**< overrides pl_config.job_timeout_ms when non-zero */
  pl_completion_fn on_complete; /**< may be NULL */
  void* user_data;              /**< passed to on_complete (and to nothing else) */
} pl_job_options;

/** Submits a job whose witness is a circom .wtns file (its prime must be the key's curve's r, else the job
 * fails with PL_ERR_BAD_INPUT naming both), read into the job's pinned slot during synthesis
 * (the path is copied). Waits while the queue is full unless PL_SUBMIT_NO_WAIT (or called from a callback,
 * where it never waits). On PL_OK the caller owns
 * *out (pl_job_release); the job runs whether or not the handle is kept, and its completion callback fires
 * exactly once. On an error no job exists, *out is NULL and no callback fires. options may be NULL. */
PL_API pl_status pl_submit_wtns(pl_pipeline* pipeline, const pl_key* key, const char* wtns_path,
                                const pl_job_options* options, pl_job** out);
/** pl_submit_wtns for a .wtns file's image in memory (`length` bytes at `data`, copied before returning):
 * what a witness calculator library returns, and what rapidsnark's prover takes. Its container and header are
 * checked here: an image that is no .wtns (version 2), a witness of the other curve, or one whose length is
 * not the key's num_variables is refused with PL_ERR_BAD_INPUT naming the problem (no job). Its values are
 * checked during synthesis, as a file's are: one not below r, or w[0] != 1, fails the job with
 * PL_ERR_BAD_INPUT. */
PL_API pl_status pl_submit_wtns_memory(pl_pipeline* pipeline, const pl_key* key, const void* data,
                                       size_t length, const pl_job_options* options, pl_job** out);
/** Submits a job whose witness z (z[0] = 1, the public inputs, then the private values) is `count` scalars
 * of 32 bytes each, canonical little-endian, copied before returning. count must be the key's num_variables
 * (else PL_ERR_INVALID_ARGUMENT). The scalars are checked and converted into the pinned slot during
 * synthesis: one not below r fails the job with PL_ERR_BAD_INPUT naming its index. The scalars are
 * BLS12-381's: a BN254 key refuses them with PL_ERR_BAD_INPUT (use pl_submit_scalars_curve). */
PL_API pl_status pl_submit_scalars(pl_pipeline* pipeline, const pl_key* key, const uint8_t* scalars,
                                   size_t count, const pl_job_options* options, pl_job** out);
/** pl_submit_scalars for scalars of `curve` (a pl_curve: below that curve's r), which must be the key's:
 * another curve's scalars are refused with PL_ERR_BAD_INPUT naming both, an unknown curve with
 * PL_ERR_INVALID_ARGUMENT. */
PL_API pl_status pl_submit_scalars_curve(pl_pipeline* pipeline, const pl_key* key, int32_t curve,
                                         const uint8_t* scalars, size_t count, const pl_job_options* options,
                                         pl_job** out);

/** A witness callback's view of the job's pinned slot, valid only during the callback (from any thread). */
typedef struct pl_witness_target pl_witness_target;
typedef enum pl_vector { PL_VECTOR_Z = 0, PL_VECTOR_A = 1, PL_VECTOR_B = 2, PL_VECTOR_C = 3 } pl_vector;
typedef enum pl_fills {
  PL_FILLS_WITNESS = 0,        /**< the callback fills z; the pipeline evaluates a, b, c */
  PL_FILLS_WITNESS_AND_ABC = 1 /**< the callback fills z, a, b and c (zero past the rows) */
} pl_fills;

/** Fills the job's witness (scalars of the key's curve: pl_witness_write checks them below its r), every
 * value of every vector it fills (PL_OK with part of one unwritten fails the job with PL_ERR_BAD_INPUT naming
 * the range: the reused slot holds another job's values there); returns PL_OK, or an error code that fails
 * the job as the caller's failure (with the message of pl_witness_fail, if called; else the code's name and,
 * after a refused pl_witness_write, that refusal's message): PL_ERR_BAD_INPUT, _OUT_OF_BUDGET, _IO, _CUDA,
 * _CANCELLED and _TIMEOUT are kept; PL_ERR_INTERNAL ("a bug in proofline") and values that are no pl_status
 * become PL_ERR_BAD_INPUT, the ABI's other codes PL_ERR_INVALID_ARGUMENT. A job cannot succeed once its
 * callback called pl_witness_fail or had a pl_witness_write refused (from any thread): PL_OK then fails the
 * job with PL_ERR_BAD_INPUT and pl_witness_fail's message, else the first refusal's message (the value
 * refused is not in the slot, even where the callback wrote the range again after). A C++ exception thrown
 * from it fails the job with PL_ERR_BAD_INPUT and its what(). Runs on a pipeline thread during synthesis and
 * must return (a thread that exits inside it aborts the process). A job that times out meanwhile completes
 * once it has returned, so user_data is in use until the job is complete; pl_witness_stop_requested says
 * when that has happened. */
typedef pl_status (*pl_witness_fn)(pl_witness_target* target, void* user_data);

/** Submits a job whose witness a callback writes straight into the pinned slot (fills: pl_fills). */
PL_API pl_status pl_submit_callback(pl_pipeline* pipeline, const pl_key* key, pl_witness_fn fill,
                                    void* fill_user_data, int32_t fills, const pl_job_options* options,
                                    pl_job** out);

/** Only inside a pl_witness_fn, with its target. The lengths of the slot's vectors (z: num_variables; a, b,
 * c: domain_size, 0 when the callback does not fill them), and the public input count. */
PL_API pl_status pl_witness_sizes(const pl_witness_target* target, uint64_t* z_length, uint64_t* abc_length,
                                  uint64_t* num_public);
/** Writes `count` canonical little-endian 32-byte scalars to vector[offset, offset + count): bounds-checked
 * (PL_ERR_INVALID_ARGUMENT naming the vector and the range; nothing written) and value-checked
 * (PL_ERR_BAD_INPUT for a scalar not below r; nothing written). A refusal (other than of the target itself,
 * PL_ERR_INVALID_HANDLE) also fails the job: the target keeps the first refusal's message, which the job's
 * message carries whatever the callback returns (see pl_witness_fn). */
PL_API pl_status pl_witness_write(pl_witness_target* target, int32_t vector, size_t offset,
                                  const uint8_t* scalars, size_t count);
/** Records why the callback fails (copied): the job fails with this message, with the error code the
 * callback returns (PL_ERR_BAD_INPUT when it returns PL_OK). */
PL_API pl_status pl_witness_fail(pl_witness_target* target, const char* message);
/** Only inside a pl_witness_fn, with its target. *stop = 1 once the job's result was decided while the
 * callback runs (its timeout came): what it writes after that is not used, so a long computation may poll
 * this and return at once (with any status); 0 before. */
PL_API pl_status pl_witness_stop_requested(const pl_witness_target* target, int32_t* stop);

/** PL_OK when the job's result is ready, PL_ERR_NOT_READY before. Never blocks. The job's completion
 * callback may still be running when it says PL_OK: free its user_data only after pl_job_wait has returned
 * PL_OK (which waits for the callback too). */
PL_API pl_status pl_job_poll(pl_job* job);
/** Waits up to timeout_ms (negative, or a century and more: without limit; 0: poll) until the result is
 * ready and the job's completion callback has returned. PL_OK, or PL_ERR_NOT_READY when the time ran out.
 * From inside a callback only timeout_ms = 0 is allowed (else PL_ERR_IN_CALLBACK); inside the job's own
 * completion callback it is PL_ERR_NOT_READY (that callback has not returned), where pl_job_poll says
 * PL_OK. */
PL_API pl_status pl_job_wait(pl_job* job, int64_t timeout_ms);
/** The job's own outcome once ready: PL_OK when it has a proof, else its error code (PL_ERR_BAD_INPUT,
 * PL_ERR_CANCELLED, PL_ERR_TIMEOUT, ...) with its message ("synthesis: ...", ending in " (job 'LABEL')" for a
 * job submitted with a label) in pl_last_error_message().
 * PL_ERR_NOT_READY before the result. */
PL_API pl_status pl_job_outcome(pl_job* job);
/** Cancels the job if it is still queued (its result: PL_ERR_CANCELLED, delivered at once, or with
 * pl_config.in_order once the jobs submitted before it are delivered), or while its witness callback runs
 * (pl_witness_stop_requested then says 1, and the result comes once the callback returns);
 * PL_ERR_NOT_CANCELLABLE when it is past its witness or done. */
PL_API pl_status pl_job_cancel(pl_job* job);

/** The pipeline stage a job failed in (pl_job_info.stage). */
typedef enum pl_stage {
  PL_STAGE_QUEUE = 0,     /**< submitted, waiting for a pinned slot */
  PL_STAGE_ADMISSION = 1, /**< slot being leased */
  PL_STAGE_SYNTHESIS = 2, /**< the witness into its slot, then A·z, B·z, C·z */
  PL_STAGE_H2D = 3,       /**< slot to GPU (CUDA backend) */
  PL_STAGE_NTT = 4,       /**< the H polynomial */
  PL_STAGE_MSM = 5,       /**< the five multi-scalar multiplications */
  PL_STAGE_RELEASE = 6,   /**< proof assembly, verification and delivery */
  PL_STAGE_BASELINE = 7   /**< PL_MODE_BASELINE: H2D, NTT and MSM under one lock */
} pl_stage;

typedef struct pl_job_info {
  size_t size;         /**< sizeof(pl_job_info) */
  uint64_t id;         /**< the pipeline's job id */
  uint64_t seq;        /**< submission order, from 0 */
  int32_t outcome;     /**< as pl_job_outcome */
  int32_t verified;    /**< the pipeline verified the proof (pl_config.verify) */
  int32_t gpu;         /**< the GPU it ran on; -1 on the CPU backend */
  int32_t stage;       /**< pl_stage where it failed; -1 if it did not */
  uint64_t num_public; /**< public inputs in the result */
  double queued_s;     /**< submit to slot */
  double latency_s;    /**< submit to result */
  int32_t curve;       /**< pl_curve of the job's key: which encodings its proof has */
} pl_job_info;

/** The job's figures once ready (PL_ERR_NOT_READY before). */
PL_API pl_status pl_job_get_info(pl_job* job, pl_job_info* info);

#define PL_PROOF_BYTES 192
#define PL_SCALAR_BYTES 32
#define PL_PROOF_UNCOMPRESSED_BYTES_BLS12_381 384
#define PL_PROOF_UNCOMPRESSED_BYTES_BN254 256

/** The proof's 192-byte encoding (A, B, C compressed, as bellman/arkworks write it) into out (length at
 * least PL_PROOF_BYTES, else PL_ERR_BUFFER_TOO_SMALL). A failed job returns its error code. BLS12-381 only:
 * a BN254 job's proof gets PL_ERR_INVALID_ARGUMENT (use pl_job_proof_uncompressed or pl_job_proof_json). */
PL_API pl_status pl_job_proof(pl_job* job, uint8_t* out, size_t length);
/** The proof's points A (G1), B (G2), C (G1) uncompressed, one after the other, on the job's curve:
 * - BLS12-381: the zcash / IETF uncompressed encodings (96 + 192 + 96 = PL_PROOF_UNCOMPRESSED_BYTES_BLS12_381
 *   bytes; big-endian coordinates, G2's as c1 || c0, the infinity flag for the point at infinity);
 * - BN254: Ethereum's EIP-196/197 encoding (64 + 128 + 64 = PL_PROOF_UNCOMPRESSED_BYTES_BN254 bytes; 32-byte
 *   big-endian x || y, G2's x and y each as imaginary || real, the point at infinity as zeros), the order in
 *   which the pairing precompile and snarkjs's Solidity verifier take them.
 * *needed (may be NULL) gets the size; PL_ERR_BUFFER_TOO_SMALL when length is less. A failed job returns its
 * error code. */
PL_API pl_status pl_job_proof_uncompressed(pl_job* job, uint8_t* out, size_t length, size_t* needed);
/** The public inputs z[1..num_public] as 32-byte canonical little-endian scalars (of the job's curve). *count
 * gets the number; PL_ERR_BUFFER_TOO_SMALL when length < 32 * *count (out may then be NULL). */
PL_API pl_status pl_job_public_inputs(pl_job* job, uint8_t* out, size_t length, size_t* count);
/** snarkjs's proof.json and public.json texts (byte for byte what snarkjs writes; "curve" is "bls12381" or
 * "bn128" as the job's key), NUL-terminated in out.
 * *needed (may be NULL) gets the size including the NUL; PL_ERR_BUFFER_TOO_SMALL when length is less (out
 * may then be NULL). */
PL_API pl_status pl_job_proof_json(pl_job* job, char* out, size_t length, size_t* needed);
PL_API pl_status pl_job_public_json(pl_job* job, char* out, size_t length, size_t* needed);
/** Releases the handle (the job itself is unaffected: a running job still runs and its callback still
 * fires, with a handle that then reports PL_ERR_INVALID_HANDLE). */
PL_API pl_status pl_job_release(pl_job* job);

/* ---- verification -------------------------------------------------------------------------------------- */

/** Reads snarkjs's verification_key.json (a file, or its text of `length` bytes), of curve bn128 (BN254) or
 * bls12381 as the file says. Caller owns *out. */
PL_API pl_status pl_vk_load_json_file(const char* path, pl_vk** out);
PL_API pl_status pl_vk_load_json(const char* text, size_t length, pl_vk** out);
/** The key as snarkjs's verification_key.json text (see pl_job_proof_json for out/length/needed). */
PL_API pl_status pl_vk_to_json(const pl_vk* vk, char* out, size_t length, size_t* needed);
/** The key's curve (a pl_curve) into *curve. */
PL_API pl_status pl_vk_curve(const pl_vk* vk, int32_t* curve);
PL_API pl_status pl_vk_release(pl_vk* vk);

/** Checks a 192-byte proof against `num_public` public inputs (32-byte canonical little-endian each); the
 * encoding is BLS12-381's, so a bn128 key gets PL_ERR_INVALID_ARGUMENT (verify its proofs with
 * pl_verify_json). PL_OK: valid. PL_ERR_PROOF_INVALID: a point that does not decode or lies off the curve or
 * subgroup, a wrong input count, or a failed pairing check, the reason in the message. PL_ERR_BAD_INPUT: an
 * input not below r. PL_ERR_INVALID_ARGUMENT: a proof_length other than PL_PROOF_BYTES (the caller's slip:
 * pl_verify_uncompressed, whose length depends on the key's curve, judges a wrong one invalid instead).
 * A num_public other than the key's is judged before public_inputs is read (it is not). */
PL_API pl_status pl_verify(const pl_vk* vk, const uint8_t* proof, size_t proof_length,
                           const uint8_t* public_inputs, size_t num_public);
/** Checks a proof in its curve's uncompressed encoding (pl_job_proof_uncompressed's: 384 bytes for a
 * BLS12-381 key, 256 bytes of EIP-196/197 points for a bn128 key) against `num_public` public inputs
 * (32-byte canonical little-endian, below the key's r). PL_OK: valid. PL_ERR_PROOF_INVALID: a wrong length, a
 * point that does not decode or lies off the curve or subgroup, a wrong input count, or a failed pairing
 * check, the reason in the message (a wrong input count before public_inputs is read). PL_ERR_BAD_INPUT: an
 * input not below r. */
PL_API pl_status pl_verify_uncompressed(const pl_vk* vk, const uint8_t* proof, size_t proof_length,
                                        const uint8_t* public_inputs, size_t num_public);
/** The same for snarkjs's proof.json and public.json texts (NUL-terminated), on the key's curve (the proof
 * must name it). PL_ERR_BAD_INPUT for text that is not in snarkjs's format or names the other curve. */
PL_API pl_status pl_verify_json(const pl_vk* vk, const char* proof_json, const char* public_json);

#ifdef __cplusplus
} /* extern "C" */
#endif

#endif /* PROOFLINE_H */

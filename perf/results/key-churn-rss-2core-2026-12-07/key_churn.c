/* Key churn through the C ABI: one pipeline; each iteration adds a key (from the file or from memory), submits 8
 * jobs of every witness source, cancels some, releases handles in various orders, then releases the key. Prints
 * RSS, open files, threads, mallinfo2 and the pipeline's figures every 10 iterations.
 * usage: key_churn ZKEY WTNS ITERS key    (TRIM=1: call malloc_trim(0) itself after each iteration) */
#include <proofline.h>
#include <dirent.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <malloc.h>

static atomic_long completions;
static atomic_long releases_in_cb;

static long rss_kb(void) {
  FILE* f = fopen("/proc/self/status", "r"); char line[256]; long v = -1;
  while (fgets(line, sizeof line, f)) if (!strncmp(line, "VmRSS:", 6)) v = atol(line + 6);
  fclose(f); return v;
}
static int count_dir(const char* p) {
  DIR* d = opendir(p); int n = 0; struct dirent* e;
  while ((e = readdir(d))) if (e->d_name[0] != '.') n++;
  closedir(d); return n;
}
static void metric_line(pl_pipeline* p, char* out, size_t n) {
  static char buf[1 << 20]; size_t need = 0; out[0] = 0;
  if (pl_pipeline_metrics(p, buf, sizeof buf, &need) != PL_OK) return;
  const char* names[] = {"\nproofline_host_keys ", "\nproofline_host_key_bytes ", "\nproofline_host_budget_used_bytes ", "\nproofline_pinned_bytes{state=\"idle\"} "};
  for (int i = 0; i < 4; i++) { char* l = strstr(buf, names[i]); if (l) { l++; char* e = strchr(l, '\n'); size_t len = e - l; size_t cur = strlen(out);
      if (cur + len + 2 < n) { out[cur] = ' '; memcpy(out + cur + 1, l, len); out[cur + 1 + len] = 0; } } }
}
static void on_complete(pl_job* job, void* ud) {
  atomic_fetch_add(&completions, 1);
  if (ud) { pl_job_release(job); atomic_fetch_add(&releases_in_cb, 1); }  /* release from inside */
}
static void on_complete_keep(pl_job* job, void* ud) { (void)job; (void)ud; atomic_fetch_add(&completions, 1); }

typedef struct { const uint8_t* vals; size_t n; } wctx;
static pl_status fill(pl_witness_target* t, void* ud) {
  wctx* c = ud; return pl_witness_write(t, PL_VECTOR_Z, 0, c->vals, c->n);
}
static pl_status fill_fail(pl_witness_target* t, void* ud) {
  (void)ud; pl_witness_fail(t, "deliberate failure"); return PL_ERR_BAD_INPUT;
}

static unsigned char* slurp(const char* p, size_t* n) {
  FILE* f = fopen(p, "rb"); fseek(f, 0, SEEK_END); *n = ftell(f); fseek(f, 0, SEEK_SET);
  unsigned char* b = malloc(*n); if (fread(b, 1, *n, f) != *n) abort(); fclose(f); return b;
}
static const uint8_t* wtns_values(const unsigned char* d, size_t len, size_t* count) {
  size_t off = 12;
  while (off + 12 <= len) { uint32_t kind; uint64_t size; memcpy(&kind, d + off, 4); memcpy(&size, d + off + 4, 8);
    off += 12; if (kind == 2) { *count = size / 32; return d + off; } off += size; }
  abort();
}
#define CK(x) do { pl_status s_ = (x); if (s_ != PL_OK) { fprintf(stderr, "%s:%d %s: %s: %s\n", __FILE__, __LINE__, #x, pl_status_name(s_), pl_last_error_message()); } } while (0)

int main(int argc, char** argv) {
  const char* zkey = argv[1]; const char* wtns = argv[2]; int iters = atoi(argv[3]); const char* mode = argv[4];
  size_t zlen, wlen; unsigned char* zimg = slurp(zkey, &zlen); unsigned char* wimg = slurp(wtns, &wlen);
  size_t nvals; const uint8_t* vals = wtns_values(wimg, wlen, &nvals);
  wctx ctx = {vals, nvals};
  pl_set_log_level(PL_LOG_WARN);
  pl_config cfg; pl_config_default(&cfg, sizeof cfg);
  cfg.backend = PL_BACKEND_CPU; cfg.host_budget_bytes = 512ull << 20; cfg.max_threads = 2; cfg.verify = 1;
  long base_rss = 0; time_t t0 = time(NULL);
  long ok = 0, failed = 0, cancelled = 0, submitted = 0;
  pl_pipeline* keep = NULL;
  int keyonly = !strcmp(mode, "keyonly"), jobsonly = !strcmp(mode, "jobsonly");
  if (!strcmp(mode, "key") || keyonly || jobsonly) CK(pl_pipeline_create(&cfg, &keep));
  pl_key* fixed = NULL; if (jobsonly) CK(pl_key_add_zkey_file(keep, zkey, NULL, &fixed));
  for (int it = 0; it < iters; it++) {
    pl_pipeline* p = keep;
    if (!p) CK(pl_pipeline_create(&cfg, &p));
    if (keyonly) { pl_key* k2 = NULL; pl_key_options o2 = {sizeof o2, NULL, PL_POINTS_FULL, NULL, 0};
      char nm[32]; snprintf(nm, sizeof nm, "ko%d", it); o2.name = nm;
      if (it % 2) CK(pl_key_add_zkey_file(p, zkey, &o2, &k2)); else CK(pl_key_add_zkey_memory(p, zimg, zlen, &o2, &k2));
      CK(pl_key_release(k2));
      if (it % 50 == 49) { char mx[512]; metric_line(p, mx, sizeof mx);
        printf("it=%d t=%lds rss_kb=%ld fds=%d threads=%d%s\n", it + 1, (long)(time(NULL) - t0), rss_kb(), count_dir("/proc/self/fd"), count_dir("/proc/self/task"), mx); fflush(stdout); }
      continue; }
    pl_key* key = NULL; pl_key_options ko = {sizeof ko, NULL, PL_POINTS_FULL, NULL, 0};
    char name[32]; snprintf(name, sizeof name, "k%d", it); ko.name = name;
    if (jobsonly) key = fixed; else if (it % 2) CK(pl_key_add_zkey_file(p, zkey, &ko, &key)); else CK(pl_key_add_zkey_memory(p, zimg, zlen, &ko, &key));
    pl_vk* vk = NULL; CK(pl_key_verifying_key(key, &vk));
    enum { J = 8 }; pl_job* jobs[J] = {0};
    for (int j = 0; j < J; j++) {
      pl_job_options o = {sizeof o, 0, 0, "soak", 0, NULL, NULL};
      if (j == 6) { o.on_complete = on_complete; o.user_data = (void*)1; }   /* released inside callback */
      else o.on_complete = on_complete_keep;
      pl_status s;
      switch (j % 5) {
        case 0: s = pl_submit_wtns(p, key, wtns, &o, &jobs[j]); break;
        case 1: s = pl_submit_wtns_memory(p, key, wimg, wlen, &o, &jobs[j]); break;
        case 2: s = pl_submit_scalars_curve(p, key, PL_CURVE_BN254, vals, nvals, &o, &jobs[j]); break;
        case 3: s = pl_submit_callback(p, key, fill, &ctx, PL_FILLS_WITNESS, &o, &jobs[j]); break;
        default: s = pl_submit_callback(p, key, fill_fail, NULL, PL_FILLS_WITNESS, &o, &jobs[j]); break;
      }
      if (s != PL_OK) fprintf(stderr, "submit %d: %s %s\n", j, pl_status_name(s), pl_last_error_message());
      else submitted++;
    }
    pl_job* cb_released = jobs[6]; jobs[6] = NULL; (void)cb_released;
    /* cancel two, fire-and-forget one */
    if (jobs[7]) pl_job_cancel(jobs[7]);
    if (jobs[5]) pl_job_cancel(jobs[5]);
    if (jobs[1]) { pl_job_release(jobs[1]); jobs[1] = NULL; }
    int variant = it % 4;
    if (!keep && variant == 0) {          /* destroy with jobs in flight (drain) */
      CK(pl_pipeline_destroy(p)); p = NULL;
    } else if (!keep && variant == 1) {   /* cancel queued, then destroy */
      CK(pl_pipeline_shutdown(p, PL_SHUTDOWN_CANCEL)); CK(pl_pipeline_destroy(p)); p = NULL;
    } else {
      for (int j = 0; j < J; j++) if (jobs[j]) pl_job_wait(jobs[j], -1);
    }
    for (int j = 0; j < J; j++) if (jobs[j]) {
      pl_job_wait(jobs[j], -1);
      pl_status o = pl_job_outcome(jobs[j]);
      if (o == PL_OK) { ok++; char pj[4096], pub[4096]; CK(pl_job_proof_json(jobs[j], pj, sizeof pj, NULL));
        CK(pl_job_public_json(jobs[j], pub, sizeof pub, NULL)); if (pl_verify_json(vk, pj, pub) != PL_OK) fprintf(stderr, "VERIFY FAIL\n"); }
      else if (o == PL_ERR_CANCELLED) cancelled++; else failed++;
      CK(pl_job_release(jobs[j]));
    }
    if (variant == 3 && p) { CK(pl_pipeline_drain(p)); pl_stats st; st.size = sizeof st; pl_pipeline_stats(p, &st);
      if (st.pinned_bytes_leased || st.slots_in_flight || st.queue_depth || st.in_flight)
        fprintf(stderr, "it %d idle stats: leased %lu slots %lu queue %lu inflight %lu\n", it,
                (unsigned long)st.pinned_bytes_leased, (unsigned long)st.slots_in_flight, (unsigned long)st.queue_depth, (unsigned long)st.in_flight); }
    if (!jobsonly) CK(pl_key_release(key));
    CK(pl_vk_release(vk)); if (getenv("TRIM")) malloc_trim(0);
    if (p && !keep) CK(pl_pipeline_destroy(p));
    if (it == 9) base_rss = rss_kb();
    if (it % 10 == 9 || it == iters - 1) {
      char extra[256] = "";
      if (keep) { CK(pl_pipeline_drain(keep)); pl_stats st; st.size = sizeof st; pl_pipeline_stats(keep, &st);
        char mx[512] = ""; if (!getenv("NO_METRICS")) metric_line(keep, mx, sizeof mx);
        snprintf(extra, sizeof extra, "%s pinned=%lu leased=%lu slots=%lu q=%lu", mx, (unsigned long)st.pinned_bytes,
                 (unsigned long)st.pinned_bytes_leased, (unsigned long)st.slots_in_flight, (unsigned long)st.queue_depth); }
      { struct mallinfo2 mi = mallinfo2(); printf("MALLINFO it=%d inuse_kb=%zu mmap_kb=%zu free_in_arenas_kb=%zu arena_kb=%zu\n", it + 1, mi.uordblks / 1024, mi.hblkhd / 1024, mi.fordblks / 1024, mi.arena / 1024); }
      printf("it=%d t=%lds rss_kb=%ld (d=%+ld) fds=%d threads=%d ok=%ld failed=%ld cancelled=%ld submitted=%ld cb=%ld cbrel=%ld%s\n",
             it + 1, (long)(time(NULL) - t0), rss_kb(), base_rss ? rss_kb() - base_rss : 0, count_dir("/proc/self/fd"),
             count_dir("/proc/self/task"), ok, failed, cancelled, submitted, (long)completions, (long)releases_in_cb, extra);
      fflush(stdout);
    }
  }
  if (keep) {
    /* final: submit many, then shut down with jobs in flight */
    pl_key* key; CK(pl_key_add_zkey_file(keep, zkey, NULL, &key));
    pl_job* js[40];
    for (int j = 0; j < 40; j++) CK(pl_submit_wtns(keep, key, wtns, NULL, &js[j]));
    CK(pl_pipeline_shutdown(keep, PL_SHUTDOWN_CANCEL));
    pl_stats st; st.size = sizeof st; pl_pipeline_stats(keep, &st);
    printf("after shutdown: leased=%lu slots=%lu q=%lu inflight=%lu\n", (unsigned long)st.pinned_bytes_leased,
           (unsigned long)st.slots_in_flight, (unsigned long)st.queue_depth, (unsigned long)st.in_flight);
    CK(pl_pipeline_destroy(keep));
    int c = 0; for (int j = 0; j < 40; j++) { if (pl_job_outcome(js[j]) == PL_ERR_CANCELLED) c++; pl_job_release(js[j]); }
    pl_key_release(key);
    printf("final: cancelled %d of 40; rss_kb=%ld fds=%d threads=%d\n", c, rss_kb(), count_dir("/proc/self/fd"), count_dir("/proc/self/task"));
  }
  { struct mallinfo2 mi = mallinfo2(); printf("MALLINFO end inuse_kb=%zu mmap_kb=%zu free_in_arenas_kb=%zu\n", mi.uordblks / 1024, mi.hblkhd / 1024, mi.fordblks / 1024); }
  printf("before trim rss_kb=%ld\n", rss_kb()); malloc_trim(0); printf("after malloc_trim rss_kb=%ld\n", rss_kb());
  printf("done rss_kb=%ld fds=%d threads=%d\n", rss_kb(), count_dir("/proc/self/fd"), count_dir("/proc/self/task"));
  return 0;
}

#!/usr/bin/env python3
"""End-to-end tests of proofline-fleet against the fixture's PostgreSQL server (pg_server.sh).

  fleet_e2e.py drain --fleet BIN --state DIR --fixtures DIR   one worker, SIGTERM while it holds jobs: it
                                                              finishes and delivers them and exits 0
  fleet_e2e.py chaos --fleet BIN --state DIR --fixtures DIR   3 CPU workers, 300 jobs plus bad ones, one worker
                                                              SIGKILLed and the server restarted mid-run
  fleet_e2e.py curves --fleet BIN --state DIR --fixtures DIR  one worker proves bn128 and bls12381 keys side by
                                                              side (witnesses by path and inline); a witness of
                                                              the other curve fails its job naming both
  fleet_e2e.py operator --fleet BIN --state DIR --fixtures DIR an operator's mistakes: a second worker under a
                                                              live one's name, a cancelled statement, a key
                                                              replaced between jobs and under running ones, a
                                                              bad --check-vk, a URL that cannot be parsed

Each run makes its own database on the server and its own temporary folder, and removes both.
"""
import argparse
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time

PSQL = os.environ.get("PROOFLINE_PSQL", "/usr/lib/postgresql/15/bin/psql")
PASSWORD = "s3cret-pw-never-logged"  # trust auth accepts it; the logs must never show it


def fail(message):
    print("FAIL: " + message, flush=True)
    sys.exit(1)


def check(condition, message):
    if not condition:
        fail(message)
    print("ok: " + message, flush=True)


class Fleet:
    def __init__(self, args, name):
        self.args = args
        self.base = open(os.path.join(args.state, "conninfo")).read().strip()
        self.port = open(os.path.join(args.state, "port")).read().strip()
        self.db = "e2e_%s_%d" % (name, os.getpid())
        self.dir = tempfile.mkdtemp(prefix="proofline-fleet-e2e.")
        self.procs = []
        self.sql_admin("CREATE DATABASE " + self.db)
        self.url_file = os.path.join(self.dir, "db-url")
        with open(self.url_file, "w") as f:
            f.write("postgresql://proofline:%s@127.0.0.1:%s/%s\n" % (PASSWORD, self.port, self.db))
        os.chmod(self.url_file, 0o600)

    def sql_admin(self, sql):
        subprocess.run([PSQL, "-X", "-q", "-v", "ON_ERROR_STOP=1", self.base, "-c", sql], check=True)

    def sql(self, sql):
        out = subprocess.run([PSQL, "-X", "-A", "-t", "-q", "-v", "ON_ERROR_STOP=1", self.base + " dbname=" + self.db,
                              "-c", sql], check=True, capture_output=True, text=True)
        return out.stdout.strip()

    def sql_or_none(self, sql):
        """None while the statement fails (e.g. before a worker made the schema)."""
        try:
            return self.sql(sql)
        except subprocess.CalledProcessError:
            return None

    def count(self, where):
        return int(self.sql("SELECT count(*) FROM proofline.jobs WHERE " + where) or 0)

    def start(self, argv, log_name, env_url=False):
        env = dict(os.environ)
        if env_url:  # the other way in: the URL from the environment
            env["PROOFLINE_DB_URL"] = open(self.url_file).read().strip()
        else:
            argv = argv + ["--db-url-file", self.url_file]
        log = open(os.path.join(self.dir, log_name), "w")
        proc = subprocess.Popen([self.args.fleet] + argv, stdout=log, stderr=subprocess.STDOUT, env=env)
        self.procs.append(proc)
        return proc

    def worker(self, name, lease=4, extra=()):
        return self.start(["worker", "--name", name, "--backend", "cpu", "--lease", str(lease), "--threads", "2",
                           "--zkey-check", "curve", *extra], name + ".log")

    def log(self, name):
        return open(os.path.join(self.dir, name)).read()

    def wait_for(self, what, predicate, timeout=60):
        """Polls the predicate; a statement that fails (the schema not made yet, the server restarting) is a no."""
        end = time.time() + timeout
        while time.time() < end:
            try:
                if predicate():
                    return
            except subprocess.CalledProcessError:
                pass
            time.sleep(0.1)
        fail("timed out waiting for " + what)

    def wait_for_workers(self, count):
        self.wait_for("%d workers to register" % count,
                      lambda: self.sql_or_none("SELECT count(*) FROM proofline.workers") == str(count))

    def close(self):
        for p in self.procs:
            if p.poll() is None:
                p.kill()
                p.wait()
        try:
            self.sql_admin("DROP DATABASE IF EXISTS %s WITH (FORCE)" % self.db)
        finally:
            shutil.rmtree(self.dir, ignore_errors=True)


def copies(fleet, source, stem, count):
    paths = []
    for i in range(count):
        path = os.path.join(fleet.dir, "%s%d.wtns" % (stem, i))
        shutil.copyfile(source, path)
        paths.append(path)
    return paths


def no_secret_in_logs(fleet):
    for name in os.listdir(fleet.dir):
        if name.endswith(".log") and PASSWORD in fleet.log(name):
            fail("%s shows the database password" % name)
    print("ok: no log shows the database password", flush=True)


def test_drain(args):
    fleet = Fleet(args, "drain")
    try:
        chain = os.path.join(args.fixtures, "chain_1024")
        wtns = copies(fleet, os.path.join(chain, "witness.wtns"), "d", 12)
        worker = fleet.worker("drainer", lease=30)
        # Idle first (its first claim found nothing): only the NOTIFY of the insert can wake it before its
        # 30-second safety claim.
        fleet.wait_for_workers(1)
        submit = fleet.start(["submit", "--zkey", os.path.join(chain, "circuit_final.zkey"), "--wtns"] + wtns,
                             "submit.log", env_url=True)
        check(submit.wait(timeout=30) == 0, "submit queues 12 jobs")
        fleet.wait_for("the idle worker to be woken by NOTIFY and claim", lambda: fleet.count("state = 'running'") > 0,
                       timeout=10)
        # Frozen with its jobs, the worker's heartbeat row is older than its claim: status counts the queue.
        worker.send_signal(signal.SIGSTOP)
        time.sleep(0.3)
        held = fleet.count("state = 'running'")
        status = subprocess.run([args.fleet, "status", "--db-url-file", fleet.url_file], capture_output=True,
                                text=True, timeout=30)
        check(status.returncode == 0 and ("holds %d of" % held) in status.stdout,
              "status shows the %d jobs the worker holds now: %s" % (held, status.stdout.strip()))
        # Leases that ran out (a worker gone) are told apart from running jobs, then given back their time.
        fleet.sql("UPDATE proofline.jobs SET lease_expires = now() - interval '1 second' WHERE state = 'running'")
        status = subprocess.run([args.fleet, "status", "--db-url-file", fleet.url_file], capture_output=True,
                                text=True, timeout=30)
        check(("%d running past their lease" % held) in status.stdout,
              "status names leases that ran out: " + status.stdout.strip())
        fleet.sql("UPDATE proofline.jobs SET lease_expires = now() + interval '30 seconds' WHERE state = 'running'")
        worker.send_signal(signal.SIGCONT)
        worker.send_signal(signal.SIGTERM)
        check(worker.wait(timeout=60) == 0, "SIGTERM while holding %d jobs: the worker exits 0" % held)
        check(fleet.count("state = 'running'") == 0, "nothing is left running")
        done = fleet.count("state = 'done'")
        check(done >= held, "every job it held was finished and delivered (%d done)" % done)
        check(done + fleet.count("state = 'queued' AND attempts = 0") == 12, "the rest were never claimed")
        check(fleet.sql("SELECT count(*) FROM proofline.workers") == "0", "the worker left the workers table")
        check("stopping: claiming nothing more" in fleet.log("drainer.log"), "the worker logged its drain")
        no_secret_in_logs(fleet)
    finally:
        fleet.close()


def submit_groups(fleet, args):
    """Three submissions waiting for their results: 280 witnesses by path plus three broken ones, 20 inline,
    and 2 for a key file that does not load."""
    chain = os.path.join(args.fixtures, "chain_1024")
    zkey = os.path.join(chain, "circuit_final.zkey")
    good = copies(fleet, os.path.join(chain, "witness.wtns"), "w", 280)
    inline = copies(fleet, os.path.join(chain, "witness.wtns"), "i", 20)
    corrupt = os.path.join(fleet.dir, "corrupt.wtns")
    with open(os.path.join(chain, "witness.wtns"), "rb") as f, open(corrupt, "wb") as out:
        out.write(f.read()[:100])
    other = os.path.join(fleet.dir, "other.wtns")
    shutil.copyfile(os.path.join(args.fixtures, "chain_16", "witness.wtns"), other)
    bad_key = os.path.join(fleet.dir, "bad.zkey")
    with open(bad_key, "wb") as f:
        f.write(b"zkey" + bytes(range(256)) * 4)
    missing = os.path.join(fleet.dir, "missing.wtns")
    vk = os.path.join(chain, "verification_key.json")
    out_a, out_b = os.path.join(fleet.dir, "out-a"), os.path.join(fleet.dir, "out-b")
    common = ["--wait", "--check-vk", vk]
    return {
        "a": fleet.start(["submit", "--zkey", zkey, "--out", out_a, "--wtns"] + good + [missing, corrupt, other] +
                         common, "submit-a.log"),
        "b": fleet.start(["submit", "--zkey", zkey, "--inline", "--priority", "1", "--out", out_b, "--wtns"] +
                         inline + common, "submit-b.log", env_url=True),
        "c": fleet.start(["submit", "--zkey", bad_key, "--wtns"] + good[:2] + ["--wait"], "submit-c.log"),
        "out_a": out_a, "out_b": out_b,
    }


def chaos_checks(fleet, subs):
    check(subs["a"].wait(timeout=200) == 1, "submission a ends with exit 1 (its three broken witnesses fail)")
    check(subs["b"].wait(timeout=30) == 0, "submission b (inline witnesses) ends with exit 0")
    check(subs["c"].wait(timeout=30) == 1, "submission c (a key that does not load) ends with exit 1")
    log_a, log_b, log_c = fleet.log("submit-a.log"), fleet.log("submit-b.log"), fleet.log("submit-c.log")
    check("280 done, 3 failed; 280 of the proofs verify" in log_a, "a: 280 proofs verify, 3 failures")
    check("20 done, 0 failed; 20 of the proofs verify" in log_b, "b: 20 proofs verify")
    check("0 done, 2 failed" in log_c, "c: both jobs failed")
    for name in ("missing.wtns", "corrupt.wtns", "other.wtns"):
        check(fleet.count("state = 'failed' AND error LIKE '%%%s%%'" % name) == 1, "the failure names " + name)
    check(fleet.count("state = 'failed' AND error LIKE 'key %bad.zkey%'") == 2, "both bad-key failures name the key")
    check(fleet.count("state = 'done'") == 300, "300 jobs are done")
    check(fleet.sql("SELECT count(*), count(DISTINCT job_id) FROM proofline.results") == "300|300",
          "300 results, one per job")
    check(fleet.sql("SELECT count(*) FROM proofline.jobs j JOIN proofline.results r ON r.job_id = j.id "
                    "WHERE j.state = 'done' AND r.attempt = j.attempts AND r.worker = j.worker AND r.verified") == "300",
          "each result comes from the job's last lease and was verified by its worker")
    check(fleet.count("state = 'done' AND attempts >= 2") >= 1, "jobs of the killed worker were proved again "
          "(%d with 2+ attempts)" % fleet.count("state = 'done' AND attempts >= 2"))
    check(fleet.count("witness_inline IS NOT NULL") == 0, "no inline witness is left in the database")
    check(len([f for f in os.listdir(subs["out_a"]) if f.endswith(".proof.json")]) == 280, "a wrote 280 proofs")
    check(len([f for f in os.listdir(subs["out_b"]) if f.endswith(".public.json")]) == 20, "b wrote 20 publics")


def test_chaos(args):
    fleet = Fleet(args, "chaos")
    started = time.time()
    try:
        workers = [fleet.worker("w%d" % i) for i in range(3)]
        fleet.wait_for_workers(3)  # the schema exists and every worker takes part from the first job
        subs = submit_groups(fleet, args)
        fleet.wait_for("w1 to hold jobs after 30 proofs",
                       lambda: fleet.count("state = 'done'") >= 30 and fleet.count("state = 'running' AND worker = 'w1'") > 0)
        workers[1].send_signal(signal.SIGKILL)
        print("killed w1 holding %d jobs" % fleet.count("state = 'running' AND worker = 'w1'"), flush=True)
        fleet.wait_for("120 proofs", lambda: fleet.count("state = 'done'") >= 120, timeout=150)
        subprocess.run([os.path.join(os.path.dirname(os.path.abspath(__file__)), "pg_server.sh"), "restart",
                        args.state], check=True)
        print("restarted PostgreSQL at %.1f s" % (time.time() - started), flush=True)
        chaos_checks(fleet, subs)
        check(any("lost the database" in fleet.log(w + ".log") for w in ("w0", "w2")),
              "the workers noticed the restart and reconnected")
        for i in (0, 2):
            workers[i].send_signal(signal.SIGTERM)
            check(workers[i].wait(timeout=30) == 0, "w%d stops on SIGTERM with exit 0" % i)
        no_secret_in_logs(fleet)
        print("chaos run took %.1f s" % (time.time() - started), flush=True)
    finally:
        if os.environ.get("PROOFLINE_FLEET_KEEP_LOGS"):
            for name in sorted(os.listdir(fleet.dir)):
                if name.endswith(".log"):
                    print("==== %s\n%s" % (name, fleet.log(name)[-3000:]))
        fleet.close()


def read(path):
    with open(path) as f:
        return f.read()


def test_curves(args):
    fleet = Fleet(args, "curves")
    try:
        bn = os.path.join(args.fixtures, "bn128", "chain_16")
        bls = os.path.join(args.fixtures, "chain_16")
        bn_wtns = copies(fleet, os.path.join(bn, "witness.wtns"), "bn", 4)
        bls_wtns = copies(fleet, os.path.join(bls, "witness.wtns"), "bls", 3)
        wrong = os.path.join(fleet.dir, "wrong.wtns")
        shutil.copyfile(os.path.join(bls, "witness.wtns"), wrong)
        bad = subprocess.run([args.fleet, "worker", "--max-log-rows", "40"], capture_output=True, text=True)
        check(bad.returncode == 2 and "--max-log-rows" in bad.stderr, "--max-log-rows 40 is refused (exit 2)")
        bad = subprocess.run([args.fleet, "worker", "--name", "  "], capture_output=True, text=True)
        check(bad.returncode == 2 and "--name" in bad.stderr, "a blank worker name is refused (exit 2)")
        bad = subprocess.run([args.fleet, "wrker\x1b[2J"], capture_output=True, text=True)
        check(bad.returncode == 2 and "unknown command 'wrker\\u001b[2J'" in bad.stderr and "submit" in bad.stderr
              and bad.stdout == "", "an unknown command is named, escaped, with the commands, on stderr (exit 2)")
        for witness, why in ((os.path.join(fleet.dir, "missing.wtns"), "cannot open"), (fleet.dir, "not a regular")):
            bad = subprocess.run([args.fleet, "submit", "--zkey", os.path.join(bn, "circuit_final.zkey"), "--inline",
                                  "--wtns", witness, "--db-url-file", fleet.url_file], capture_output=True, text=True)
            check(bad.returncode == 2 and "--wtns: " + witness in bad.stderr and why in bad.stderr,
                  "submit --inline refuses %s before anything is queued (exit 2): %s" % (witness, bad.stderr))
        closed = os.path.join(fleet.dir, "closed-url")  # nothing listens there: nothing gets queued
        with open(closed, "w") as f:
            f.write("postgresql://proofline:%s@127.0.0.1:1/%s\n" % (PASSWORD, fleet.db))
        typo = subprocess.run([args.fleet, "submit", "--zkey", os.path.join(fleet.dir, "typo.zkey"), "--wtns",
                               os.path.join(fleet.dir, "typo.wtns"), "--db-url-file", closed],
                              capture_output=True, text=True, timeout=60)
        check(typo.returncode == 1 and "typo.zkey' is not a file here" in typo.stderr and
              "1 of the witness files are not files here" in typo.stderr,
              "submit warns of a key and a witness that are not files here: " + typo.stderr.strip())
        fleet.worker("both", extra=("--max-log-rows", "12"))  # GPU slot sizing: accepted, unused on the CPU
        fleet.wait_for_workers(1)
        out_bn, out_inline, out_bls = (os.path.join(fleet.dir, d) for d in ("out-bn", "out-inline", "out-bls"))

        def submit(zkey_dir, wtns, out, log, extra=()):
            return fleet.start(["submit", "--zkey", os.path.join(zkey_dir, "circuit_final.zkey"), "--out", out,
                                "--wait", "--check-vk", os.path.join(zkey_dir, "verification_key.json"),
                                "--wtns"] + wtns + list(extra), log)

        subs = [submit(bn, bn_wtns[:2] + [wrong], out_bn, "submit-bn.log"),
                submit(bn, bn_wtns[2:], out_inline, "submit-inline.log", ["--inline"]),
                submit(bls, bls_wtns, out_bls, "submit-bls.log")]
        codes = [p.wait(timeout=120) for p in subs]
        check(codes == [1, 0, 0], "bn128 by path (one wrong witness), bn128 inline and bls12381 end %s" % codes)
        check("2 done, 1 failed; 2 of the proofs verify" in fleet.log("submit-bn.log"),
              "bn128 by path: both good proofs verify against the bn128 vk")
        check("2 done, 0 failed; 2 of the proofs verify" in fleet.log("submit-inline.log"),
              "bn128 inline: both proofs verify")
        check("3 done, 0 failed; 3 of the proofs verify" in fleet.log("submit-bls.log"),
              "bls12381 beside them: three proofs verify")
        error = fleet.sql("SELECT error FROM proofline.jobs WHERE state = 'failed'")
        check("wrong.wtns" in error and "BLS12-381" in error and "BN254" in error,
              "the bls12381 witness for the bn128 key fails naming both curves: " + error)
        check(fleet.sql("SELECT count(*) FROM proofline.jobs WHERE state = 'failed' AND attempts = 1") == "1",
              "and fails for good at its first attempt")
        check(fleet.sql("SELECT curve, octet_length(proof), count(*) FROM proofline.results GROUP BY 1, 2 "
                        "ORDER BY 1") == "bls12381|192|3\nbn128|256|4",
              "the results table keeps each proof in its curve's encoding")
        for out, names in ((out_bn, ["bn0", "bn1"]), (out_inline, ["bn2", "bn3"])):
            for name in names:
                proof = read(os.path.join(out, name + ".proof.json"))
                check('"curve": "bn128"' in proof, name + ".proof.json names curve bn128")
                check(read(os.path.join(out, name + ".public.json")) == read(os.path.join(bn, "public.json")),
                      name + ".public.json is snarkjs's")
        for name in ("bls0", "bls1", "bls2"):
            check('"curve": "bls12381"' in read(os.path.join(out_bls, name + ".proof.json")),
                  name + ".proof.json names curve bls12381")
        check("bn128 key" in fleet.log("both.log") and "bls12381 key" in fleet.log("both.log"),
              "one worker registered keys of both curves")
    finally:
        fleet.close()


def cancel_locked_statements(fleet, seconds):
    """Holds a lock on the jobs table for `seconds` and cancels every statement that waits for it, as an
    operator's pg_cancel_backend (or a statement_timeout) would; returns how many were cancelled."""
    holder = subprocess.Popen([PSQL, "-X", "-q", fleet.base + " dbname=" + fleet.db, "-c",
                               "BEGIN; LOCK TABLE proofline.jobs IN ACCESS EXCLUSIVE MODE; SELECT pg_sleep(%d); "
                               "COMMIT;" % seconds], stdout=subprocess.DEVNULL)
    cancelled, end = 0, time.time() + seconds
    while time.time() < end:
        cancelled += int(fleet.sql("SELECT count(pg_cancel_backend(pid)) FROM pg_stat_activity WHERE "
                                   "wait_event_type = 'Lock' AND datname = current_database()") or 0)
        time.sleep(0.2)
    holder.wait(timeout=30)
    return cancelled


def test_operator(args):
    fleet = Fleet(args, "operator")
    try:
        bls = os.path.join(args.fixtures, "chain_16")
        big = os.path.join(args.fixtures, "chain_1024")
        key = os.path.join(fleet.dir, "current.zkey")
        shutil.copyfile(os.path.join(bls, "circuit_final.zkey"), key)
        first = fleet.worker("ops", extra=("--prefetch", "64"))  # claims a whole submit at once (see below)
        fleet.wait_for_workers(1)

        second = fleet.start(["worker", "--name", "ops", "--backend", "cpu"], "ops-again.log")
        check(second.wait(timeout=30) == 2, "a second worker under a live worker's name exits 2")
        check("another worker named ops is running" in fleet.log("ops-again.log"), "naming the running one")
        check(first.poll() is None, "the first worker runs on")

        check(cancel_locked_statements(fleet, 4) >= 1, "a statement of the worker was cancelled")
        check(first.poll() is None, "the worker survives a cancelled statement")

        bad_vk = subprocess.run([args.fleet, "submit", "--zkey", key, "--wtns", os.path.join(bls, "witness.wtns"),
                                 "--wait", "--check-vk", key, "--db-url-file", fleet.url_file],
                                capture_output=True, text=True)
        check(bad_vk.returncode == 2 and "--check-vk" in bad_vk.stderr,
              "a --check-vk that is not a verification key exits 2: " + bad_vk.stderr.strip())
        check(fleet.count("true") == 0, "and queues nothing")

        url = os.path.join(fleet.dir, "bad-url")
        with open(url, "w") as f:
            f.write("postgresql://proofline:%s%%zz@127.0.0.1:%s/%s\n" % (PASSWORD, fleet.port, fleet.db))
        for command in (["status"], ["worker", "--backend", "cpu"]):
            run = subprocess.run([args.fleet] + command + ["--db-url-file", url], capture_output=True, text=True,
                                 timeout=30)
            check(run.returncode == 2 and "cannot be parsed" in run.stderr and PASSWORD not in run.stderr,
                  "%s with a URL libpq cannot parse exits 2 without showing it: %s" % (command[0],
                                                                                    run.stderr.strip()))

        def submit(zkey_dir, log):
            return fleet.start(["submit", "--zkey", key, "--wait", "--check-vk",
                                os.path.join(zkey_dir, "verification_key.json"), "--wtns",
                                os.path.join(zkey_dir, "witness.wtns")], log)

        check(submit(bls, "submit-old.log").wait(timeout=60) == 0, "the first key proves after the cancel")
        # The key file is replaced by another circuit's while the worker keeps the first registered: the next
        # job is proved with the new file's key.
        shutil.copyfile(os.path.join(big, "circuit_final.zkey"), key)
        os.utime(key, (time.time() + 5, time.time() + 5))
        check(submit(big, "submit-new.log").wait(timeout=120) == 0, "after the file is replaced, its new key proves")
        check("1 done, 0 failed; 1 of the proofs verify" in fleet.log("submit-new.log"),
              "against the new circuit's verification key")

        # Replaced again while jobs of the current key run: they finish with the key they started with, and a
        # job queued after the replacement is proved with the new file's key. (Jobs name their key by path:
        # one still queued at the replacement would get the new file, so the worker claims all of them first.)
        running = fleet.start(["submit", "--zkey", key, "--wait", "--check-vk",
                               os.path.join(big, "verification_key.json"), "--wtns",
                               *copies(fleet, os.path.join(big, "witness.wtns"), "big", 60)], "submit-running.log")
        fleet.wait_for("the worker to claim every job of the current key, some still running",
                       lambda: fleet.count("state = 'done'") >= 2 and fleet.count("state = 'queued'") == 0 and
                       fleet.count("state = 'running'") > 0)
        shutil.copyfile(os.path.join(bls, "circuit_final.zkey"), key)
        os.utime(key, (time.time() + 10, time.time() + 10))
        check(submit(bls, "submit-after.log").wait(timeout=120) == 0, "a job queued after the replacement proves")
        check("1 done, 0 failed; 1 of the proofs verify" in fleet.log("submit-after.log"),
              "with the replacing file's key")
        check(running.wait(timeout=120) == 0 and
              "60 done, 0 failed; 60 of the proofs verify" in fleet.log("submit-running.log"),
              "every job that ran during the replacement verifies against the key it started with")
        check("jobs started before keep the old one" in fleet.log("ops.log"),
              "the worker kept the running jobs' key while it loaded the new file")
        first.send_signal(signal.SIGTERM)
        check(first.wait(timeout=30) == 0, "the worker stops on SIGTERM with exit 0")
        no_secret_in_logs(fleet)
    finally:
        fleet.close()


def test_roles(args):
    """A least-privilege role proves once an owner migrated; a schema edited by hand stops a worker (exit 1)."""
    fleet = Fleet(args, "roles")
    role = "e2e_prover_%d" % os.getpid()
    try:
        check(subprocess.run([args.fleet, "migrate", "--db-url-file", fleet.url_file], capture_output=True,
                             text=True).returncode == 0, "the owner migrates")
        fleet.sql_admin("CREATE ROLE %s LOGIN PASSWORD '%s'" % (role, PASSWORD))
        fleet.sql("GRANT CONNECT ON DATABASE %s TO %s; GRANT USAGE ON SCHEMA proofline TO %s;"
                  " GRANT SELECT, INSERT, UPDATE, DELETE ON ALL TABLES IN SCHEMA proofline TO %s;"
                  " GRANT USAGE ON ALL SEQUENCES IN SCHEMA proofline TO %s" % (fleet.db, role, role, role, role))
        fleet.url_file = os.path.join(fleet.dir, "prover-url")  # every command below logs in as the role
        with open(fleet.url_file, "w") as f:
            f.write("postgresql://%s:%s@127.0.0.1:%s/%s\n" % (role, PASSWORD, fleet.port, fleet.db))
        bls = os.path.join(args.fixtures, "chain_16")
        key = os.path.join(fleet.dir, "key-without-extension")  # the reader goes by the file's magic
        shutil.copyfile(os.path.join(bls, "circuit_final.zkey"), key)
        worker = fleet.worker("least")
        fleet.wait_for_workers(1)
        submit = fleet.start(["submit", "--zkey", key, "--wait", "--check-vk",
                              os.path.join(bls, "verification_key.json"), "--wtns",
                              os.path.join(bls, "witness.wtns")], "submit.log")
        check(submit.wait(timeout=120) == 0 and "1 done, 0 failed; 1 of the proofs verify" in fleet.log("submit.log"),
              "a role with only USAGE and DML rights submits and proves: " + fleet.log("submit.log"))
        fleet.sql("ALTER TABLE proofline.jobs DROP COLUMN deadline")  # a schema edited by hand
        broken = subprocess.run([args.fleet, "submit", "--zkey", key, "--wtns", os.path.join(bls, "witness.wtns"),
                                 "--db-url-file", fleet.url_file], capture_output=True, text=True, timeout=60)
        check(broken.returncode == 1 and "does not fit this program" in broken.stderr,
              "submit to it exits 1 saying why: " + broken.stderr.strip())
        check(worker.wait(timeout=60) == 1, "a worker whose schema lost a column stops with exit 1")
        check("does not fit this program" in fleet.log("least.log"), "saying why: " + fleet.log("least.log")[-600:])
        no_secret_in_logs(fleet)
    finally:
        fleet.close()
        fleet.sql_admin("DROP ROLE IF EXISTS " + role)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("test", choices=["drain", "chaos", "curves", "operator", "roles"])
    parser.add_argument("--fleet", required=True)
    parser.add_argument("--state", required=True)
    parser.add_argument("--fixtures", required=True)
    args = parser.parse_args()
    {"drain": test_drain, "chaos": test_chaos, "curves": test_curves, "operator": test_operator,
     "roles": test_roles}[args.test](args)


if __name__ == "__main__":
    main()

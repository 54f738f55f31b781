#!/usr/bin/env python3
"""Proves a small batch through libproofline's C ABI with ctypes, and checks every proof with the library's
verifier.

    PROOFLINE_LIBRARY=/prefix/lib/libproofline.so.1 prove_batch.py KEY.zkey WITNESS.wtns VK.json [COUNT]

A third of the jobs read the .wtns file, a third hand over its bytes (what a witness calculator library
returns), a third its values as scalars; results come through a completion
callback and a blocking wait, and the library's log lines go to Python's logging through a log sink. Then
one error path: a file that is not a key gives PL_ERR_BAD_INPUT and a message. Exit status 0 when every proof
verifies.
"""

import ctypes
import logging
import os
import struct
import sys
import threading

PL_OK = 0
PL_ERR_BAD_INPUT = 2
PL_ERR_BUFFER_TOO_SMALL = 12
PL_BACKEND_CPU = 1
PL_SHUTDOWN_CANCEL = 1
PL_LOG_INFO = 2
PROOF_BYTES = 192
SCALAR_BYTES = 32


class Config(ctypes.Structure):
    _fields_ = [
        ("size", ctypes.c_size_t),
        ("backend", ctypes.c_int32),
        ("mode", ctypes.c_int32),
        ("host_budget_bytes", ctypes.c_uint64),
        ("vram_budget_bytes", ctypes.c_uint64),
        ("gpus", ctypes.POINTER(ctypes.c_int32)),
        ("num_gpus", ctypes.c_size_t),
        ("slots", ctypes.c_uint32),
        ("device_slots", ctypes.c_uint32),
        ("synthesis_concurrency", ctypes.c_uint32),
        ("max_threads", ctypes.c_uint32),
        ("max_log_n", ctypes.c_uint32),
        ("srs_placement", ctypes.c_int32),
        ("pinning", ctypes.c_int32),
        ("prewarm", ctypes.c_int32),
        ("verify", ctypes.c_int32),
        ("check_witness", ctypes.c_int32),
        ("in_order", ctypes.c_int32),
        ("queue_capacity", ctypes.c_uint32),
        ("job_timeout_ms", ctypes.c_uint64),
        ("key_idle_timeout_ms", ctypes.c_uint64),
    ]


COMPLETION = ctypes.CFUNCTYPE(None, ctypes.c_void_p, ctypes.c_void_p)


class JobOptions(ctypes.Structure):
    _fields_ = [
        ("size", ctypes.c_size_t),
        ("priority", ctypes.c_int32),
        ("flags", ctypes.c_uint32),
        ("label", ctypes.c_char_p),
        ("timeout_ms", ctypes.c_uint64),
        ("on_complete", COMPLETION),
        ("user_data", ctypes.c_void_p),
    ]


LOG_SINK = ctypes.CFUNCTYPE(None, ctypes.c_int32, ctypes.c_char_p, ctypes.c_void_p)
NO_LOG_SINK = LOG_SINK()  # NULL: the library's stderr again
# pl_log_level (trace, debug, info, warn, error) as logging's levels.
LOG_LEVELS = [logging.DEBUG, logging.DEBUG, logging.INFO, logging.WARNING, logging.ERROR]
log = logging.getLogger("proofline")


@LOG_SINK
def log_sink(level, message, user_data):
    """The library's log lines into logging, from whichever thread logs (ctypes takes the GIL for it). At
    module level: the object must stay alive for as long as the library may call it."""
    log.log(LOG_LEVELS[level] if 0 <= level < len(LOG_LEVELS) else logging.ERROR, message.decode(errors="replace"))


def load_library():
    lib = ctypes.CDLL(os.environ.get("PROOFLINE_LIBRARY", "libproofline.so.1"))
    handle = ctypes.c_void_p
    out = ctypes.POINTER(ctypes.c_void_p)
    signatures = {
        "pl_abi_version": (ctypes.c_int, []),
        "pl_version": (ctypes.c_char_p, []),
        "pl_status_name": (ctypes.c_char_p, [ctypes.c_int]),
        "pl_set_log_sink": (ctypes.c_int, [LOG_SINK, ctypes.c_void_p, ctypes.c_int32]),
        "pl_last_error_message": (ctypes.c_char_p, []),
        "pl_config_default": (ctypes.c_int, [ctypes.POINTER(Config), ctypes.c_size_t]),
        "pl_pipeline_create": (ctypes.c_int, [ctypes.POINTER(Config), out]),
        "pl_pipeline_shutdown": (ctypes.c_int, [handle, ctypes.c_int32]),
        "pl_pipeline_destroy": (ctypes.c_int, [handle]),
        "pl_key_add_zkey_file": (ctypes.c_int, [handle, ctypes.c_char_p, ctypes.c_void_p, out]),
        "pl_key_release": (ctypes.c_int, [handle]),
        "pl_vk_load_json_file": (ctypes.c_int, [ctypes.c_char_p, out]),
        "pl_vk_release": (ctypes.c_int, [handle]),
        "pl_submit_wtns": (ctypes.c_int, [handle, handle, ctypes.c_char_p, ctypes.POINTER(JobOptions), out]),
        "pl_submit_wtns_memory": (
            ctypes.c_int,
            [handle, handle, ctypes.c_char_p, ctypes.c_size_t, ctypes.POINTER(JobOptions), out],
        ),
        "pl_submit_scalars": (
            ctypes.c_int,
            [handle, handle, ctypes.c_char_p, ctypes.c_size_t, ctypes.POINTER(JobOptions), out],
        ),
        "pl_job_wait": (ctypes.c_int, [handle, ctypes.c_int64]),
        "pl_job_outcome": (ctypes.c_int, [handle]),
        "pl_job_proof": (ctypes.c_int, [handle, ctypes.c_char_p, ctypes.c_size_t]),
        "pl_job_public_inputs": (
            ctypes.c_int,
            [handle, ctypes.c_char_p, ctypes.c_size_t, ctypes.POINTER(ctypes.c_size_t)],
        ),
        "pl_job_proof_json": (
            ctypes.c_int,
            [handle, ctypes.c_char_p, ctypes.c_size_t, ctypes.POINTER(ctypes.c_size_t)],
        ),
        "pl_job_public_json": (
            ctypes.c_int,
            [handle, ctypes.c_char_p, ctypes.c_size_t, ctypes.POINTER(ctypes.c_size_t)],
        ),
        "pl_job_release": (ctypes.c_int, [handle]),
        "pl_verify": (
            ctypes.c_int,
            [handle, ctypes.c_char_p, ctypes.c_size_t, ctypes.c_char_p, ctypes.c_size_t],
        ),
        "pl_verify_json": (ctypes.c_int, [handle, ctypes.c_char_p, ctypes.c_char_p]),
    }
    for name, (restype, argtypes) in signatures.items():
        function = getattr(lib, name)
        function.restype = restype
        function.argtypes = argtypes
    return lib


class ProoflineError(RuntimeError):
    def __init__(self, lib, call, status):
        self.status = status
        name = lib.pl_status_name(status).decode()
        super().__init__(f"{call}: {name}: {lib.pl_last_error_message().decode()}")


def check(lib, call, status):
    if status != PL_OK:
        raise ProoflineError(lib, call, status)


def text(lib, function, job):
    """A JSON text from the library: ask for the size, then fetch it."""
    needed = ctypes.c_size_t(0)
    status = function(job, None, 0, ctypes.byref(needed))
    if status != PL_ERR_BUFFER_TOO_SMALL:
        check(lib, function.__name__, status)
    buffer = ctypes.create_string_buffer(needed.value)
    check(lib, function.__name__, function(job, buffer, needed.value, None))
    return buffer.value


def wtns_values(data, path):
    """The witness scalars of a .wtns file's bytes (section 2), canonical little-endian, 32 bytes each."""
    if data[:4] != b"wtns":
        raise SystemExit(f"{path}: not a .wtns file")
    offset = 12
    while offset + 12 <= len(data):
        kind, size = struct.unpack_from("<IQ", data, offset)
        offset += 12
        if kind == 2:
            return data[offset : offset + size], size // SCALAR_BYTES
        offset += size
    raise SystemExit(f"{path}: no values section")


def verify_job(lib, job, vk):
    check(lib, "pl_job_outcome", lib.pl_job_outcome(job))
    proof = ctypes.create_string_buffer(PROOF_BYTES)
    check(lib, "pl_job_proof", lib.pl_job_proof(job, proof, PROOF_BYTES))
    # The count of public inputs first (a NULL buffer holds none), then the inputs.
    count = ctypes.c_size_t(0)
    status = lib.pl_job_public_inputs(job, None, 0, ctypes.byref(count))
    if status != PL_ERR_BUFFER_TOO_SMALL:
        check(lib, "pl_job_public_inputs", status)
    inputs = ctypes.create_string_buffer(count.value * SCALAR_BYTES + 1)
    check(lib, "pl_job_public_inputs", lib.pl_job_public_inputs(job, inputs, len(inputs), ctypes.byref(count)))
    check(lib, "pl_verify", lib.pl_verify(vk, proof, PROOF_BYTES, inputs, count.value))
    proof_json = text(lib, lib.pl_job_proof_json, job)
    public_json = text(lib, lib.pl_job_public_json, job)
    check(lib, "pl_verify_json", lib.pl_verify_json(vk, proof_json, public_json))
    return True


def main(argv):
    if len(argv) < 4:
        print(f"usage: {argv[0]} KEY.zkey WITNESS.wtns VK.json [COUNT]", file=sys.stderr)
        return 2
    logging.basicConfig(format="%(name)s %(levelname)s: %(message)s", level=logging.INFO)
    lib = load_library()
    if lib.pl_abi_version() != 1:
        raise SystemExit(f"libproofline has ABI {lib.pl_abi_version()}, this script speaks 1")
    # Installed before the pipeline and removed after it, on every way out: while Python exits it ends the
    # threads that call into it, and a thread ended inside a callback aborts the process. Once
    # pl_set_log_sink(NULL) returns, the sink is never called again.
    check(lib, "pl_set_log_sink", lib.pl_set_log_sink(log_sink, None, PL_LOG_INFO))
    try:
        return run(lib, argv)
    finally:
        lib.pl_set_log_sink(NO_LOG_SINK, None, PL_LOG_INFO)


def run(lib, argv):
    zkey, wtns, vk_json = (a.encode() for a in argv[1:4])
    count = int(argv[4]) if len(argv) > 4 else 4
    with open(argv[2], "rb") as f:
        image = f.read()
    values, num_values = wtns_values(image, argv[2])
    config = Config()
    check(lib, "pl_config_default", lib.pl_config_default(ctypes.byref(config), ctypes.sizeof(config)))
    config.backend = PL_BACKEND_CPU
    config.host_budget_bytes = 1 << 30

    # What the callbacks use lives in this frame until pl_pipeline_destroy (below) has waited for them.
    done = []
    lock = threading.Lock()

    @COMPLETION
    def on_complete(job, user_data):  # on a pipeline thread; ctypes takes the GIL for it
        with lock:
            done.append(job)

    options = JobOptions(size=ctypes.sizeof(JobOptions), on_complete=on_complete)
    pipeline, key, vk = ctypes.c_void_p(), ctypes.c_void_p(), ctypes.c_void_p()
    jobs = []
    check(lib, "pl_pipeline_create", lib.pl_pipeline_create(ctypes.byref(config), ctypes.byref(pipeline)))
    try:
        check(lib, "pl_key_add_zkey_file", lib.pl_key_add_zkey_file(pipeline, zkey, None, ctypes.byref(key)))
        check(lib, "pl_vk_load_json_file", lib.pl_vk_load_json_file(vk_json, ctypes.byref(vk)))
        for i in range(count):
            job = ctypes.c_void_p()
            if i % 3 == 0:
                status = lib.pl_submit_wtns(pipeline, key, wtns, ctypes.byref(options), ctypes.byref(job))
            elif i % 3 == 1:  # copied before the call returns
                status = lib.pl_submit_wtns_memory(pipeline, key, image, len(image), ctypes.byref(options),
                                                   ctypes.byref(job))
            else:
                status = lib.pl_submit_scalars(pipeline, key, values, num_values, ctypes.byref(options),
                                               ctypes.byref(job))
            check(lib, "pl_submit", status)
            jobs.append(job)
        verified = 0
        while jobs:
            job = jobs[0]
            check(lib, "pl_job_wait", lib.pl_job_wait(job, -1))
            verified += verify_job(lib, job, vk)
            check(lib, "pl_job_release", lib.pl_job_release(jobs.pop(0)))

        bad_key = ctypes.c_void_p()
        status = lib.pl_key_add_zkey_file(pipeline, vk_json, None, ctypes.byref(bad_key))
        print(f"bad key: {lib.pl_status_name(status).decode()}: {lib.pl_last_error_message().decode()}")
    except BaseException:
        # Leaving with jobs in flight: cancel the queued ones rather than prove them for nobody.
        lib.pl_pipeline_shutdown(pipeline, PL_SHUTDOWN_CANCEL)
        raise
    finally:
        # On every way out (while Python exits it ends the threads that call into it, and a pipeline thread
        # ended inside a callback aborts the process): pl_pipeline_destroy waits for the jobs still running
        # and their callbacks, and only then may on_complete go. The handles outlive the pipeline and are
        # released after it.
        destroyed = lib.pl_pipeline_destroy(pipeline)
        for job in jobs:
            lib.pl_job_release(job)
        for handle, release in ((key, lib.pl_key_release), (vk, lib.pl_vk_release)):
            if handle.value:
                release(handle)
    check(lib, "pl_pipeline_destroy", destroyed)
    print(f"libproofline {lib.pl_version().decode()}: {count} proofs, {verified} verified, {len(done)} callbacks")
    ok = verified == count and len(done) == count and status == PL_ERR_BAD_INPUT and not bad_key.value
    return 0 if ok else 1


if __name__ == "__main__":
    try:
        sys.exit(main(sys.argv))
    except ProoflineError as e:
        print(e, file=sys.stderr)
        sys.exit(1)

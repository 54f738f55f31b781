//! Proves a small batch through libproofline's C ABI from Rust (plain `extern "C"` declarations, no crates),
//! and checks every proof with the library's verifier.
//!
//!     rustc -O prove_batch.rs -L native=PREFIX/lib -C link-args=-Wl,-rpath,PREFIX/lib
//!     ./prove_batch KEY.zkey WITNESS.wtns VK.json [COUNT]
//!
//! Jobs read the .wtns file; results arrive through a completion callback that sends each job to a channel,
//! and the library's log lines through a log sink that writes them to stderr (where a program with the `log`
//! crate would call `log::log!`). Then one error path: a file that is not a key gives PL_ERR_BAD_INPUT and a
//! message.
use std::ffi::{c_void, CStr, CString};
use std::io::Write;
use std::os::raw::{c_char, c_int};
use std::sync::mpsc::{channel, Sender};
use std::sync::Mutex;

type Status = c_int;
const PL_OK: Status = 0;
const PL_ERR_BAD_INPUT: Status = 2;
const PL_ERR_BUFFER_TOO_SMALL: Status = 12;
const PL_BACKEND_CPU: i32 = 1;
const PL_SHUTDOWN_CANCEL: i32 = 1;
const PL_LOG_INFO: i32 = 2;
const PL_ABI_VERSION: c_int = 1;
const PROOF_BYTES: usize = 192;
const SCALAR_BYTES: usize = 32;

#[repr(C)]
struct Opaque {
    _private: [u8; 0],
}

#[repr(C)]
#[derive(Default)]
struct Config {
    size: usize,
    backend: i32,
    mode: i32,
    host_budget_bytes: u64,
    vram_budget_bytes: u64,
    gpus: usize, // const int32_t*: left NULL here
    num_gpus: usize,
    slots: u32,
    device_slots: u32,
    synthesis_concurrency: u32,
    max_threads: u32,
    max_log_n: u32,
    srs_placement: i32,
    pinning: i32,
    prewarm: i32,
    verify: i32,
    check_witness: i32,
    in_order: i32,
    queue_capacity: u32,
    job_timeout_ms: u64,
    key_idle_timeout_ms: u64,
}

type Completion = extern "C" fn(job: *mut Opaque, user_data: *mut c_void);
type LogSink = extern "C" fn(level: i32, message: *const c_char, user_data: *mut c_void);

#[repr(C)]
struct JobOptions {
    size: usize,
    priority: i32,
    flags: u32,
    label: *const c_char,
    timeout_ms: u64,
    on_complete: Option<Completion>,
    user_data: *mut c_void,
}

#[link(name = "proofline")]
extern "C" {
    fn pl_version() -> *const c_char;
    fn pl_abi_version() -> c_int;
    fn pl_status_name(status: Status) -> *const c_char;
    fn pl_last_error_message() -> *const c_char;
    fn pl_set_log_sink(sink: Option<LogSink>, user_data: *mut c_void, min_level: i32) -> Status;
    fn pl_config_default(config: *mut Config, size: usize) -> Status;
    fn pl_pipeline_create(config: *const Config, out: *mut *mut Opaque) -> Status;
    fn pl_pipeline_shutdown(pipeline: *mut Opaque, mode: i32) -> Status;
    fn pl_pipeline_destroy(pipeline: *mut Opaque) -> Status;
    fn pl_key_add_zkey_file(pipeline: *mut Opaque, path: *const c_char, options: *const c_void,
                            out: *mut *mut Opaque) -> Status;
    fn pl_key_release(key: *mut Opaque) -> Status;
    fn pl_vk_load_json_file(path: *const c_char, out: *mut *mut Opaque) -> Status;
    fn pl_vk_release(vk: *mut Opaque) -> Status;
    fn pl_submit_wtns(pipeline: *mut Opaque, key: *const Opaque, path: *const c_char, options: *const JobOptions,
                      out: *mut *mut Opaque) -> Status;
    fn pl_job_wait(job: *mut Opaque, timeout_ms: i64) -> Status;
    fn pl_job_outcome(job: *mut Opaque) -> Status;
    fn pl_job_proof(job: *mut Opaque, out: *mut u8, length: usize) -> Status;
    fn pl_job_public_inputs(job: *mut Opaque, out: *mut u8, length: usize, count: *mut usize) -> Status;
    fn pl_job_proof_json(job: *mut Opaque, out: *mut c_char, length: usize, needed: *mut usize) -> Status;
    fn pl_job_public_json(job: *mut Opaque, out: *mut c_char, length: usize, needed: *mut usize) -> Status;
    fn pl_job_release(job: *mut Opaque) -> Status;
    fn pl_verify(vk: *const Opaque, proof: *const u8, proof_length: usize, inputs: *const u8, count: usize) -> Status;
    fn pl_verify_json(vk: *const Opaque, proof_json: *const c_char, public_json: *const c_char) -> Status;
}

fn text(p: *const c_char) -> String {
    unsafe { CStr::from_ptr(p) }.to_string_lossy().into_owned()
}

/// Ok(()) for PL_OK, else the status name and the library's message.
fn check(call: &str, status: Status) -> Result<(), String> {
    if status == PL_OK {
        return Ok(());
    }
    Err(format!("{}: {}: {}", call, text(unsafe { pl_status_name(status) }), text(unsafe { pl_last_error_message() })))
}

/// A job handle, owned: released when dropped (a job never received from the channel is released when the
/// channel goes). A pl_job pointer is an opaque id: safe to hand to another thread.
struct JobHandle(*mut Opaque);
unsafe impl Send for JobHandle {}

impl Drop for JobHandle {
    fn drop(&mut self) {
        unsafe { pl_job_release(self.0) };
    }
}

/// Runs on a pipeline thread: hands the finished job to the channel behind user_data. Nothing may unwind out
/// of it into the library (no unwrap, no panic): a send that fails drops, and so releases, the job.
extern "C" fn on_complete(job: *mut Opaque, user_data: *mut c_void) {
    let sender = unsafe { &*(user_data as *const Mutex<Sender<JobHandle>>) };
    if let Ok(sender) = sender.lock() {
        let _ = sender.send(JobHandle(job));
    }
}

/// Runs on whichever thread logs (pipeline threads, or this one inside a pl_ call): one of the library's log
/// lines, to stderr here, where a program with the `log` crate calls `log::log!`. It must not panic and must
/// not call into the library: writeln! with the error ignored, not eprintln!, which panics when stderr fails.
extern "C" fn log_line(level: i32, message: *const c_char, _user_data: *mut c_void) {
    let name = ["TRACE", "DEBUG", "INFO", "WARN", "ERROR"].get(level as usize).copied().unwrap_or("ERROR");
    let message = unsafe { CStr::from_ptr(message) }.to_string_lossy();
    let _ = writeln!(std::io::stderr(), "proofline {}: {}", name, message);
}

/// The log sink, removed when dropped; once pl_set_log_sink(NULL) returns it is never called again, so what
/// it uses may go after this guard.
struct LogSinkGuard;

impl LogSinkGuard {
    fn install() -> Result<LogSinkGuard, String> {
        check("pl_set_log_sink", unsafe { pl_set_log_sink(Some(log_line), std::ptr::null_mut(), PL_LOG_INFO) })?;
        Ok(LogSinkGuard)
    }
}

impl Drop for LogSinkGuard {
    fn drop(&mut self) {
        unsafe { pl_set_log_sink(None, std::ptr::null_mut(), PL_LOG_INFO) };
    }
}

/// A key or verifying-key handle, released when dropped (null: nothing to release). The handles outlive their
/// pipeline: declared before the pipeline's guard, they are released after it is destroyed.
struct Owned(*mut Opaque, unsafe extern "C" fn(*mut Opaque) -> Status);

impl Drop for Owned {
    fn drop(&mut self) {
        if !self.0.is_null() {
            unsafe { (self.1)(self.0) };
        }
    }
}

/// The pipeline, destroyed when dropped: on every way out of run(), an early `?` return included, first
/// cancelling the jobs still queued (no one waits for them any more). pl_pipeline_destroy waits for the
/// completion callbacks of the jobs still running, so what they use must be declared before this guard
/// (locals drop in reverse order) and so outlive it.
struct Pipeline(*mut Opaque);

impl Pipeline {
    /// Destroys it now, with the status checked (the success path).
    fn destroy(mut self) -> Result<(), String> {
        let pipeline = std::mem::replace(&mut self.0, std::ptr::null_mut());
        check("pl_pipeline_destroy", unsafe { pl_pipeline_destroy(pipeline) })
    }
}

impl Drop for Pipeline {
    fn drop(&mut self) {
        if !self.0.is_null() {
            unsafe {
                pl_pipeline_shutdown(self.0, PL_SHUTDOWN_CANCEL);
                pl_pipeline_destroy(self.0);
            }
        }
    }
}

type JsonFn = unsafe extern "C" fn(*mut Opaque, *mut c_char, usize, *mut usize) -> Status;

fn json(call: &str, function: JsonFn, job: *mut Opaque) -> Result<CString, String> {
    let mut needed = 0usize;
    let status = unsafe { function(job, std::ptr::null_mut(), 0, &mut needed) };
    if status != PL_ERR_BUFFER_TOO_SMALL {
        check(call, status)?;
    }
    let mut buffer = vec![0u8; needed];
    check(call, unsafe { function(job, buffer.as_mut_ptr() as *mut c_char, needed, std::ptr::null_mut()) })?;
    buffer.pop(); // the NUL
    CString::new(buffer).map_err(|e| e.to_string())
}

fn verify(job: *mut Opaque, vk: *const Opaque) -> Result<(), String> {
    check("pl_job_outcome", unsafe { pl_job_outcome(job) })?;
    let mut proof = [0u8; PROOF_BYTES];
    check("pl_job_proof", unsafe { pl_job_proof(job, proof.as_mut_ptr(), proof.len()) })?;
    // The count of public inputs first (a null buffer holds none), then the inputs.
    let mut count = 0usize;
    let status = unsafe { pl_job_public_inputs(job, std::ptr::null_mut(), 0, &mut count) };
    if status != PL_ERR_BUFFER_TOO_SMALL {
        check("pl_job_public_inputs", status)?;
    }
    let mut inputs = vec![0u8; count * SCALAR_BYTES + 1];
    check("pl_job_public_inputs", unsafe { pl_job_public_inputs(job, inputs.as_mut_ptr(), inputs.len(), &mut count) })?;
    check("pl_verify", unsafe { pl_verify(vk, proof.as_ptr(), proof.len(), inputs.as_ptr(), count) })?;
    let proof_json = json("pl_job_proof_json", pl_job_proof_json, job)?;
    let public_json = json("pl_job_public_json", pl_job_public_json, job)?;
    check("pl_verify_json", unsafe { pl_verify_json(vk, proof_json.as_ptr(), public_json.as_ptr()) })
}

fn run(zkey: &str, wtns: &str, vk_json: &str, count: usize) -> Result<bool, String> {
    if unsafe { pl_abi_version() } != PL_ABI_VERSION {
        return Err("libproofline's ABI is not the one this program was written for".into());
    }
    let (zkey, wtns, vk_json) = (CString::new(zkey).unwrap(), CString::new(wtns).unwrap(), CString::new(vk_json).unwrap());
    let mut config = Config::default();
    check("pl_config_default", unsafe { pl_config_default(&mut config, std::mem::size_of::<Config>()) })?;
    config.backend = PL_BACKEND_CPU;
    config.host_budget_bytes = 1 << 30;
    // The log sink first, removed last (its guard drops after the pipeline's).
    let _log_sink = LogSinkGuard::install()?;
    // Before the pipeline's guard: the callbacks use them until the guard's drop has destroyed the pipeline,
    // and the jobs left in the channel are released when it goes.
    let (sender, receiver) = channel::<JobHandle>();
    let sender = Box::new(Mutex::new(sender));
    let mut key = Owned(std::ptr::null_mut(), pl_key_release);
    let mut vk = Owned(std::ptr::null_mut(), pl_vk_release);
    let mut created = std::ptr::null_mut();
    check("pl_pipeline_create", unsafe { pl_pipeline_create(&config, &mut created) })?;
    let guard = Pipeline(created);
    let pipeline = guard.0;
    check("pl_key_add_zkey_file", unsafe { pl_key_add_zkey_file(pipeline, zkey.as_ptr(), std::ptr::null(), &mut key.0) })?;
    check("pl_vk_load_json_file", unsafe { pl_vk_load_json_file(vk_json.as_ptr(), &mut vk.0) })?;

    let options = JobOptions {
        size: std::mem::size_of::<JobOptions>(),
        priority: 0,
        flags: 0,
        label: std::ptr::null(),
        timeout_ms: 0,
        on_complete: Some(on_complete),
        user_data: &*sender as *const Mutex<Sender<JobHandle>> as *mut c_void,
    };
    for _ in 0..count {
        // The handle is the completion callback's to hand over (and so to release): not kept here.
        let mut job = std::ptr::null_mut();
        check("pl_submit_wtns", unsafe { pl_submit_wtns(pipeline, key.0, wtns.as_ptr(), &options, &mut job) })?;
    }
    let mut verified = 0;
    for _ in 0..count {
        let job = receiver.recv().map_err(|e| e.to_string())?;
        check("pl_job_wait", unsafe { pl_job_wait(job.0, -1) })?; // until its callback has returned
        verify(job.0, vk.0)?;
        verified += 1;
    }

    let mut bad_key = std::ptr::null_mut();
    let status = unsafe { pl_key_add_zkey_file(pipeline, vk_json.as_ptr(), std::ptr::null(), &mut bad_key) };
    println!("bad key: {}: {}", text(unsafe { pl_status_name(status) }), text(unsafe { pl_last_error_message() }));

    guard.destroy()?;
    println!("libproofline {}: {} proofs, {} verified", text(unsafe { pl_version() }), count, verified);
    Ok(verified == count && status == PL_ERR_BAD_INPUT && bad_key.is_null())
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    if args.len() < 4 {
        eprintln!("usage: {} KEY.zkey WITNESS.wtns VK.json [COUNT]", args[0]);
        std::process::exit(2);
    }
    let count = args.get(4).and_then(|c| c.parse().ok()).unwrap_or(4);
    match run(&args[1], &args[2], &args[3], count) {
        Ok(true) => {}
        Ok(false) => std::process::exit(1),
        Err(message) => {
            eprintln!("{}", message);
            std::process::exit(1);
        }
    }
}

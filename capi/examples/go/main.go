// Proves a small batch through libproofline's C ABI from Go (cgo), and checks every proof with the library's
// verifier.
//
//	CGO_CFLAGS=-IPREFIX/include CGO_LDFLAGS="-LPREFIX/lib -Wl,-rpath,PREFIX/lib" go build -o prove_batch .
//	./prove_batch KEY.zkey WITNESS.wtns VK.json [COUNT]
//
// Jobs read the .wtns file; each job's completion callback (an exported Go function) hands the job to a Go
// channel through a cgo.Handle, and the library's log lines reach a Go logger through a log sink. Then one
// error path: a file that is not a key gives PL_ERR_BAD_INPUT and a message.
package main

/*
#cgo LDFLAGS: -lproofline
#include <stdint.h>
#include <stdlib.h>
#include <proofline.h>

extern void goJobDone(pl_job* job, void* user_data);
extern void goLogLine(int32_t level, char* message, void* user_data);

// The log sink: pl_log_fn's exact type around the exported Go function (which cgo declares with char*).
static void log_line(int32_t level, const char* message, void* user_data) {
  goLogLine(level, (char*)message, user_data);
}

static inline pl_status install_log_sink(int32_t min_level) {
  return pl_set_log_sink(log_line, NULL, min_level);
}

// Submits with goJobDone as the completion callback; `channel` is a cgo.Handle.
static inline pl_status submit_wtns(pl_pipeline* pipeline, pl_key* key, const char* path, uintptr_t channel,
                                    pl_job** out) {
  pl_job_options options = {0};
  options.size = sizeof options;
  options.on_complete = goJobDone;
  options.user_data = (void*)channel;
  return pl_submit_wtns(pipeline, key, path, &options, out);
}
*/
import "C"

import (
	"fmt"
	"log"
	"os"
	"runtime"
	"runtime/cgo"
	"strconv"
	"unsafe"
)

// pl_last_error_message is per OS thread: keep the main goroutine on one, so that a status and its message
// are read on the thread that made the call.
func init() { runtime.LockOSThread() }

//export goJobDone
func goJobDone(job *C.pl_job, userData unsafe.Pointer) {
	done := cgo.Handle(uintptr(userData)).Value().(chan *C.pl_job)
	done <- job
}

// The library's lines, where a program on Go 1.21 or later would use log/slog.
var logger = log.New(os.Stderr, "proofline ", 0)

var logLevels = [...]string{"TRACE", "DEBUG", "INFO", "WARN", "ERROR"}

// goLogLine runs on whichever thread logs (a pipeline thread, or this program's inside a pl_ call); it must
// not call back into the library. The message is valid during the call only: C.GoString copies it.
//
//export goLogLine
func goLogLine(level C.int32_t, message *C.char, userData unsafe.Pointer) {
	name := "ERROR"
	if level >= 0 && int(level) < len(logLevels) {
		name = logLevels[level]
	}
	logger.Printf("%s: %s", name, C.GoString(message))
}

func check(call string, status C.pl_status) error {
	if status == C.PL_OK {
		return nil
	}
	return fmt.Errorf("%s: %s: %s", call, C.GoString(C.pl_status_name(status)), C.GoString(C.pl_last_error_message()))
}

// jsonText asks for the size, then fetches the text.
func jsonText(call string, job *C.pl_job, get func(*C.pl_job, *C.char, C.size_t, *C.size_t) C.pl_status) (*C.char, error) {
	var needed C.size_t
	if status := get(job, nil, 0, &needed); status != C.PL_ERR_BUFFER_TOO_SMALL {
		if err := check(call, status); err != nil {
			return nil, err
		}
	}
	buffer := (*C.char)(C.malloc(needed))
	return buffer, check(call, get(job, buffer, needed, nil))
}

func verify(job *C.pl_job, vk *C.pl_vk) error {
	if err := check("pl_job_outcome", C.pl_job_outcome(job)); err != nil {
		return err
	}
	var proof [C.PL_PROOF_BYTES]C.uint8_t
	var count C.size_t
	if err := check("pl_job_proof", C.pl_job_proof(job, &proof[0], C.size_t(len(proof)))); err != nil {
		return err
	}
	// The count of public inputs first (a nil buffer holds none), then the inputs.
	if status := C.pl_job_public_inputs(job, nil, 0, &count); status != C.PL_ERR_BUFFER_TOO_SMALL {
		if err := check("pl_job_public_inputs", status); err != nil {
			return err
		}
	}
	inputs := make([]C.uint8_t, int(count)*C.PL_SCALAR_BYTES+1)
	if err := check("pl_job_public_inputs", C.pl_job_public_inputs(job, &inputs[0], C.size_t(len(inputs)), &count)); err != nil {
		return err
	}
	if err := check("pl_verify", C.pl_verify(vk, &proof[0], C.size_t(len(proof)), &inputs[0], count)); err != nil {
		return err
	}
	proofJSON, err := jsonText("pl_job_proof_json", job, func(j *C.pl_job, o *C.char, l C.size_t, n *C.size_t) C.pl_status {
		return C.pl_job_proof_json(j, o, l, n)
	})
	defer C.free(unsafe.Pointer(proofJSON))
	if err != nil {
		return err
	}
	publicJSON, err := jsonText("pl_job_public_json", job, func(j *C.pl_job, o *C.char, l C.size_t, n *C.size_t) C.pl_status {
		return C.pl_job_public_json(j, o, l, n)
	})
	defer C.free(unsafe.Pointer(publicJSON))
	if err != nil {
		return err
	}
	return check("pl_verify_json", C.pl_verify_json(vk, proofJSON, publicJSON))
}

// waitAndVerify waits for a job the completion callback handed over, checks its proof and releases it.
func waitAndVerify(job *C.pl_job, vk *C.pl_vk) error {
	defer C.pl_job_release(job)
	if err := check("pl_job_wait", C.pl_job_wait(job, -1)); err != nil {
		return err
	}
	return verify(job, vk)
}

// releaseJobs releases the jobs left in the channel (an early return): after the pipeline is destroyed, every
// callback has run, so each of them is there.
func releaseJobs(done chan *C.pl_job) {
	for {
		select {
		case job := <-done:
			C.pl_job_release(job)
		default:
			return
		}
	}
}

func run(zkey, wtns, vkJSON string, count int) (bool, error) {
	if C.pl_abi_version() != C.PL_ABI_VERSION {
		return false, fmt.Errorf("libproofline has ABI %d, this program was built for %d", C.pl_abi_version(), C.PL_ABI_VERSION)
	}
	cZkey, cWtns, cVk := C.CString(zkey), C.CString(wtns), C.CString(vkJSON)
	defer C.free(unsafe.Pointer(cZkey))
	defer C.free(unsafe.Pointer(cWtns))
	defer C.free(unsafe.Pointer(cVk))

	// The log sink first, so that its removal (deferred) runs after the pipeline's destroy.
	if err := check("pl_set_log_sink", C.install_log_sink(C.PL_LOG_INFO)); err != nil {
		return false, err
	}
	defer C.pl_set_log_sink(nil, nil, C.PL_LOG_INFO)

	// Made before the pipeline, so that its deferred Delete runs after pl_pipeline_destroy, which waits for
	// every completion callback: on an early return, jobs still in flight call goJobDone, and a deleted
	// handle there panics on a pipeline thread. The channel holds every job, so no callback waits on it; the
	// jobs never received from it are released after the pipeline is destroyed.
	done := make(chan *C.pl_job, count)
	handle := cgo.NewHandle(done)
	defer handle.Delete()
	defer releaseJobs(done)

	var config C.pl_config
	if err := check("pl_config_default", C.pl_config_default(&config, C.size_t(unsafe.Sizeof(config)))); err != nil {
		return false, err
	}
	config.backend = C.PL_BACKEND_CPU
	config.host_budget_bytes = 1 << 30
	// Released after the pipeline is destroyed (deferred before it): the handles outlive their pipeline, and a
	// key released first would wait for its jobs to be proved instead of cancelled.
	var key *C.pl_key
	var vk *C.pl_vk
	defer func() {
		if key != nil {
			C.pl_key_release(key)
		}
		if vk != nil {
			C.pl_vk_release(vk)
		}
	}()
	var pipeline *C.pl_pipeline
	if err := check("pl_pipeline_create", C.pl_pipeline_create(&config, &pipeline)); err != nil {
		return false, err
	}
	destroyed := false
	defer func() {
		if !destroyed { // an early return: cancel the queued jobs, wait for the running ones
			C.pl_pipeline_shutdown(pipeline, C.PL_SHUTDOWN_CANCEL)
			C.pl_pipeline_destroy(pipeline)
		}
	}()
	if err := check("pl_key_add_zkey_file", C.pl_key_add_zkey_file(pipeline, cZkey, nil, &key)); err != nil {
		return false, err
	}
	if err := check("pl_vk_load_json_file", C.pl_vk_load_json_file(cVk, &vk)); err != nil {
		return false, err
	}

	for i := 0; i < count; i++ {
		var job *C.pl_job
		if err := check("pl_submit_wtns", C.submit_wtns(pipeline, key, cWtns, C.uintptr_t(handle), &job)); err != nil {
			return false, err
		}
	}
	verified := 0
	for i := 0; i < count; i++ {
		if err := waitAndVerify(<-done, vk); err != nil {
			return false, err
		}
		verified++
	}

	var badKey *C.pl_key
	status := C.pl_key_add_zkey_file(pipeline, cVk, nil, &badKey)
	fmt.Printf("bad key: %s: %s\n", C.GoString(C.pl_status_name(status)), C.GoString(C.pl_last_error_message()))
	destroyed = true
	if err := check("pl_pipeline_destroy", C.pl_pipeline_destroy(pipeline)); err != nil {
		return false, err
	}
	fmt.Printf("libproofline %s: %d proofs, %d verified\n", C.GoString(C.pl_version()), count, verified)
	return verified == count && status == C.PL_ERR_BAD_INPUT && badKey == nil, nil
}

func main() {
	if len(os.Args) < 4 {
		fmt.Fprintf(os.Stderr, "usage: %s KEY.zkey WITNESS.wtns VK.json [COUNT]\n", os.Args[0])
		os.Exit(2)
	}
	count := 4
	if len(os.Args) > 4 {
		if n, err := strconv.Atoi(os.Args[4]); err == nil {
			count = n
		}
	}
	ok, err := run(os.Args[1], os.Args[2], os.Args[3], count)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	if !ok {
		os.Exit(1)
	}
}

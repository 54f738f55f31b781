/* proofline's replacement for <assert.h> while it compiles circom's generated witness code into a shared
   object: found before the system header through -I, so every assert() in calcwit.cpp, fr.cpp, the circuit's
   code and nlohmann/json throws instead of aborting the process. The message circom prints just before a
   failed circuit assert ("Failed assert in template/function ...") is collected by the shim (its std::cout
   is redirected there at build time), so the exception carries circom's own words. Not include-guarded, like
   the header it replaces. */
#undef assert
#ifdef __cplusplus
[[noreturn]] void proofline_circom_assert_failed(const char* expression, const char* file, int line);
#define assert(expression) \
  (static_cast<bool>(expression) ? void(0) : proofline_circom_assert_failed(#expression, __FILE__, __LINE__))
#else
#define assert(expression) ((void)0)
#endif

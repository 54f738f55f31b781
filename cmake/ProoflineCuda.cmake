# Optional CUDA: the backend is built only when nvcc >= 12 is found. Without it everything else builds and
# runs on the CPU backend.

set(PROOFLINE_HAVE_CUDA OFF)
if(PROOFLINE_ENABLE_CUDA)
  include(CheckLanguage)
  if(NOT CMAKE_CUDA_COMPILER AND EXISTS /usr/local/cuda/bin/nvcc)
    set(CMAKE_CUDA_COMPILER /usr/local/cuda/bin/nvcc)
  endif()
  check_language(CUDA)
  if(CMAKE_CUDA_COMPILER)
    # The GPU code the kernels are built as. By default, from one front-end pass of compute capability 8.0
    # (the kernels use nothing newer, so each machine code is what a pass of its own would give): native code
    # for Hopper (H100/H200) and for Ampere, which every 8.x GPU runs (A100, A10, A40, L4, L40S, RTX 30/40),
    # so none of them waits for a compiler; and the PTX, which the driver compiles at first use, and caches,
    # for GPUs after them (B200, RTX 50). CMAKE_CUDA_ARCHITECTURES or CUDAARCHS set by the user (e.g. 90 alone
    # for a faster build, or "89;90" for code tuned to each) replaces the default.
    set(PROOFLINE_CUDA_CODE_FLAGS "")
    if(NOT DEFINED CMAKE_CUDA_ARCHITECTURES AND NOT DEFINED ENV{CUDAARCHS})
      set(CMAKE_CUDA_ARCHITECTURES OFF)
      set(PROOFLINE_CUDA_CODE_FLAGS "--generate-code=arch=compute_80,code=[compute_80,sm_80,sm_90]")
      set(PROOFLINE_CUDA_CODE_TEXT "90-real;80-real;80-virtual")  # as CMake would name the same code
    elseif(DEFINED CMAKE_CUDA_ARCHITECTURES)
      set(PROOFLINE_CUDA_CODE_TEXT "${CMAKE_CUDA_ARCHITECTURES}")
    else()
      set(PROOFLINE_CUDA_CODE_TEXT "$ENV{CUDAARCHS}")
    endif()
    set(CMAKE_CUDA_RUNTIME_LIBRARY Shared)  # one runtime: the shared libcudart that CUDA::cudart names
    enable_language(CUDA)
    if(CMAKE_CUDA_COMPILER_VERSION VERSION_LESS 12)
      message(WARNING "CUDA ${CMAKE_CUDA_COMPILER_VERSION} is older than 12: building the CPU backend only")
    else()
      if(CMAKE_VERSION VERSION_LESS 3.26)  # CMake 3.25 has no CUDA20 flag table for nvcc
        set(CMAKE_CUDA20_STANDARD_COMPILE_OPTION "-std=c++20")
        set(CMAKE_CUDA20_EXTENSION_COMPILE_OPTION "-std=c++20")
      endif()
      set(CMAKE_CUDA_STANDARD 20)
      set(CMAKE_CUDA_STANDARD_REQUIRED ON)
      find_package(CUDAToolkit 12 REQUIRED)
      set(PROOFLINE_HAVE_CUDA ON)
      if(PROOFLINE_CUDA_CODE_FLAGS)
        add_compile_options("$<$<COMPILE_LANGUAGE:CUDA>:${PROOFLINE_CUDA_CODE_FLAGS}>")
      endif()
    endif()
  endif()
endif()

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
    if(NOT DEFINED CMAKE_CUDA_ARCHITECTURES)
      set(CMAKE_CUDA_ARCHITECTURES 90)  # H100/H200: native sm_90 code, no PTX JIT at start
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
    endif()
  endif()
endif()

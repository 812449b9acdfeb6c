# ecsia_add_browser_module(<name> SOURCES <files...> [OUTPUT_DIRECTORY <dir>] [VARIANTS <variants...>])
#
# A browser module of your own: the engine, its bindings and your sources, linked twice, each
# variant compiled with its own flags (objects linked into a -pthread module must be -pthread):
#
#   <dir>/<name>_threaded.mjs, .wasm, .worker.js   target <name>_threaded: shared memory + worker pool
#   <dir>/<name>_single.mjs, .wasm                 target <name>_single: no SharedArrayBuffer needed
#
# VARIANTS defaults to threaded and single; threaded_debug and single_debug (the same over cores
# built with ECSIA_ACCESS_CHECKS, loadEcsia({ debug: true })) are the other two there are.
# <dir> defaults to the calling directory's build folder; a relative <dir> is taken from there.
# Your sources are compiled into each executable, not archived, so the static registrars of
# ECSIA_REGISTER_SYSTEM / ECSIA_REGISTER_COMPONENT are never dropped by the linker. A page loads
# the module with loadEcsia({ module: '<url of dir>/<name>' }) (web/ecsia.js).
#
# Usable after add_subdirectory(<ecsia>) in an emcmake build (examples/boids/CMakeLists.txt).
#
# The variants: ECSIA_BROWSER_VARIANTS lists them; each has ECSIA_BROWSER_<variant>_{CORE,COMPILE,
# LINK,POOL,EXPORT}. Another variant (a debug build, say) is one more entry set the same way
# before modules are added. The cache holds them so a function called from another project's
# directory sees them.

set(ECSIA_WASM_DIR ${CMAKE_CURRENT_LIST_DIR} CACHE INTERNAL "wasm/ of the engine: the bindings")

# Every variant: optimised, Embind, an ES module factory, a growable heap.
set(ECSIA_BROWSER_COMPILE -O3 CACHE INTERNAL "compile flags of every browser module object")
set(ECSIA_BROWSER_LINK
    -O3
    -lembind
    -sMODULARIZE=1
    -sEXPORT_ES6=1
    -sENVIRONMENT=web,worker
    -sALLOW_MEMORY_GROWTH=1
    # under 2 GB: JS kernels' chunk.lookup makes heap addresses indexes with a signed shift
    -sMAXIMUM_MEMORY=1GB
    # the JS layer restores the wasm stack pointer when a binding throws (wasm/js_error.hpp)
    -sEXPORTED_RUNTIME_METHODS=stackSave,stackRestore
    # the URL the .wasm is fetched from, for the loader's "not a wasm file" error (every module
    # loadEcsia loads needs it, a user's too)
    "SHELL:--post-js ${ECSIA_WASM_DIR}/wasm_url.post.js"
    # the engine's clock (bind_scheduler.cpp)
    "SHELL:--js-library ${ECSIA_WASM_DIR}/shared_clock.lib.js"
    CACHE INTERNAL "link flags of every browser module")
if(ECSIA_WASM_SIMD)
    set(ECSIA_BROWSER_COMPILE ${ECSIA_BROWSER_COMPILE} -msimd128 CACHE INTERNAL "")
    set(ECSIA_BROWSER_LINK ${ECSIA_BROWSER_LINK} -msimd128 CACHE INTERNAL "")
endif()

# Threaded: one Web Worker per pool slot, created before the factory's promise resolves, so a
# pthread_create never has to wait for the main thread to yield. 8 = the most workers a page
# asks for (web/ecsia.js clamps to this). The pool is only as large as the page asks: loadEcsia
# passes the worker count it will use as the factory's `ecsiaPoolSize` (a Web Worker costs a
# thread, a V8 isolate and a copy of the module's code), which pool_size.pre.js (written below)
# clamps to the build's pool; a factory called without it starts the whole pool. (Never 0: with
# no pool worker Emscripten 3.1.6's factory never resolves; loadEcsia's threads: 0 loads the
# single build instead.)
# The page never waits on a lock a worker holds (G2): wasm/worker_heap.cpp gives the workers a
# heap of their own (the page is the only thread in dlmalloc, whose mutex would make the page
# spin), Emscripten's own thread start-up and exit included, and counts every futex wait on the
# page (--wrap below), which web/scheduler.js reports as a diagnostic when it happens in update().
# e2e/g2_stress.spec.js shows it under allocation-heavy waves.
set(ECSIA_WASM_POOL_SIZE 8 CACHE STRING "Web Workers a threaded browser module starts with")
set(ECSIA_WASM_POOL_PRE_JS ${CMAKE_BINARY_DIR}/ecsia_pool_size.pre.js CACHE INTERNAL "")
file(WRITE ${ECSIA_WASM_POOL_PRE_JS}.in
     "// Written by wasm/browser_module.cmake: the Web Workers the pool starts (PTHREAD_POOL_SIZE\n"
     "// reads ecsiaPoolSize): the factory's ecsiaPoolSize (loadEcsia's worker count), at most\n"
     "// ${ECSIA_WASM_POOL_SIZE}; the whole pool when it is not given.\n"
     "var ecsiaPoolSize = Math.min(Number.isInteger(Module['ecsiaPoolSize']) && Module['ecsiaPoolSize'] >= 0 ? Module['ecsiaPoolSize'] : ${ECSIA_WASM_POOL_SIZE}, ${ECSIA_WASM_POOL_SIZE});\n")
# Copied only when it changed: the modules' links depend on it (LINK_DEPENDS), and a file
# rewritten at every configure made each re-configure (scripts/pack's) re-link every module.
configure_file(${ECSIA_WASM_POOL_PRE_JS}.in ${ECSIA_WASM_POOL_PRE_JS} COPYONLY)
set(ECSIA_BROWSER_VARIANTS threaded single CACHE INTERNAL "browser module variants")
set(ECSIA_BROWSER_threaded_CORE ecsia::core_threaded CACHE INTERNAL "")
set(ECSIA_BROWSER_threaded_COMPILE "" CACHE INTERNAL "")
# The pool workers get loadEcsia({ kernels })'s kernel module from the page by message
# (wasm/worker_kernels.post.js, with the one import() bundlers must leave alone outside the factory).
set(ECSIA_BROWSER_threaded_LINK -sPTHREAD_POOL_SIZE=ecsiaPoolSize "SHELL:--pre-js ${ECSIA_WASM_POOL_PRE_JS}"
    -sINITIAL_MEMORY=64MB -Wno-pthreads-mem-growth
    # wasm/worker_heap.cpp: Emscripten's own allocations routed by thread, the page's waits counted,
    # function-local statics first initialised on a worker counted
    -Wl,--wrap=emscripten_builtin_malloc,--wrap=emscripten_builtin_free,--wrap=emscripten_builtin_memalign,--wrap=emscripten_futex_wait,--wrap=__cxa_guard_acquire
    # SHELL: each flag with its file, or CMake's de-duplication of link options drops the second --post-js
    "SHELL:--post-js ${ECSIA_WASM_DIR}/worker_kernels.post.js" "SHELL:--extern-post-js ${ECSIA_WASM_DIR}/native_import.extern.js"
    CACHE INTERNAL "")
set(ECSIA_BROWSER_threaded_POOL ${ECSIA_WASM_POOL_SIZE} CACHE INTERNAL "")
set(ECSIA_BROWSER_threaded_EXPORT createEcsiaThreaded CACHE INTERNAL "")
set(ECSIA_BROWSER_single_CORE ecsia::core_single CACHE INTERNAL "")
set(ECSIA_BROWSER_single_COMPILE "" CACHE INTERNAL "")
set(ECSIA_BROWSER_single_LINK -sINITIAL_MEMORY=16MB CACHE INTERNAL "")
set(ECSIA_BROWSER_single_POOL 0 CACHE INTERNAL "")
set(ECSIA_BROWSER_single_EXPORT createEcsiaSingle CACHE INTERNAL "")
# The debug variants: the same modules over the access-checked cores (wasm/CMakeLists.txt).
set(ECSIA_BROWSER_DEBUG_VARIANTS threaded_debug single_debug CACHE INTERNAL "checked browser module variants")
foreach(variant threaded single)
    foreach(part COMPILE LINK POOL EXPORT)
        set(ECSIA_BROWSER_${variant}_debug_${part} "${ECSIA_BROWSER_${variant}_${part}}" CACHE INTERNAL "")
    endforeach()
endforeach()
set(ECSIA_BROWSER_threaded_debug_CORE ecsia::core_checked CACHE INTERNAL "")
set(ECSIA_BROWSER_single_debug_CORE ecsia::core_single_checked CACHE INTERNAL "")

# The bindings (one bind_<area>.cpp per area, EMSCRIPTEN_BINDINGS(ecsia_<area>)), once per variant
# as OBJECT libraries: every module of a build links the same objects, none archived (their
# EMSCRIPTEN_BINDINGS registrars must not be dropped).
set(ECSIA_BINDING_SOURCES
    ${ECSIA_WASM_DIR}/bind_world.cpp
    ${ECSIA_WASM_DIR}/bind_query.cpp
    ${ECSIA_WASM_DIR}/bind_scheduler.cpp
    ${ECSIA_WASM_DIR}/bind_kernels.cpp
    ${ECSIA_WASM_DIR}/js_kernel.cpp
    ${ECSIA_WASM_DIR}/world_fast.cpp
    ${ECSIA_WASM_DIR}/world_pairs.cpp
    ${ECSIA_WASM_DIR}/world_topics.cpp
    ${ECSIA_WASM_DIR}/world_inspect.cpp
    ${ECSIA_WASM_DIR}/bind_snapshot.cpp
    ${ECSIA_WASM_DIR}/js_error.cpp
    ${ECSIA_WASM_DIR}/js_values.cpp)
foreach(variant ${ECSIA_BROWSER_VARIANTS} ${ECSIA_BROWSER_DEBUG_VARIANTS})
    # Not in `all`: compiled for the modules that link them.
    add_library(ecsia_bindings_${variant} OBJECT EXCLUDE_FROM_ALL ${ECSIA_BINDING_SOURCES})
    target_include_directories(ecsia_bindings_${variant} PUBLIC ${ECSIA_WASM_DIR})
    target_link_libraries(ecsia_bindings_${variant} PUBLIC ${ECSIA_BROWSER_${variant}_CORE})
    target_compile_options(ecsia_bindings_${variant} PRIVATE ${ECSIA_BROWSER_COMPILE} ${ECSIA_BROWSER_${variant}_COMPILE})
    target_compile_definitions(ecsia_bindings_${variant} PRIVATE ECSIA_WASM_POOL_SIZE=${ECSIA_BROWSER_${variant}_POOL})
    if(variant MATCHES "^threaded")
        # malloc and emscripten_tls_init for threaded modules (an object, so the linker takes its
        # definitions over the libc's weak ones): the page alone in dlmalloc, G2
        target_sources(ecsia_bindings_${variant} PRIVATE ${ECSIA_WASM_DIR}/worker_heap.cpp)
    endif()
endforeach()
set_source_files_properties(${ECSIA_WASM_DIR}/worker_heap.cpp PROPERTIES SKIP_UNITY_BUILD_INCLUSION ON)

function(ecsia_add_browser_module name)
    cmake_parse_arguments(PARSE_ARGV 1 arg "" "OUTPUT_DIRECTORY" "SOURCES;VARIANTS")
    if(arg_UNPARSED_ARGUMENTS)
        message(FATAL_ERROR "ecsia_add_browser_module(${name}): unexpected arguments '${arg_UNPARSED_ARGUMENTS}' "
                            "(it takes SOURCES <files...> [OUTPUT_DIRECTORY <dir>] [VARIANTS <variants...>])")
    endif()
    if(NOT arg_SOURCES)
        message(FATAL_ERROR "ecsia_add_browser_module(${name}): SOURCES <files...> is required (your systems' .cpp files)")
    endif()
    if(NOT EMSCRIPTEN)
        message(FATAL_ERROR "ecsia_add_browser_module(${name}): browser modules need an Emscripten build "
                            "(configure with emcmake cmake ...)")
    endif()
    if(NOT arg_OUTPUT_DIRECTORY)
        set(arg_OUTPUT_DIRECTORY ${CMAKE_CURRENT_BINARY_DIR})
    endif()
    if(NOT arg_VARIANTS)
        set(arg_VARIANTS ${ECSIA_BROWSER_VARIANTS})
    endif()
    foreach(variant ${arg_VARIANTS})
        if(NOT variant IN_LIST ECSIA_BROWSER_VARIANTS AND NOT variant IN_LIST ECSIA_BROWSER_DEBUG_VARIANTS)
            message(FATAL_ERROR "ecsia_add_browser_module(${name}): unknown variant '${variant}' (there are "
                                "${ECSIA_BROWSER_VARIANTS} ${ECSIA_BROWSER_DEBUG_VARIANTS})")
        endif()
    endforeach()
    get_filename_component(out "${arg_OUTPUT_DIRECTORY}" ABSOLUTE BASE_DIR "${CMAKE_CURRENT_BINARY_DIR}")
    foreach(variant ${arg_VARIANTS})
        set(target ${name}_${variant})
        add_executable(${target} ${arg_SOURCES})  # the bindings objects come with the OBJECT library
        target_link_libraries(${target} PRIVATE ecsia_bindings_${variant} ${ECSIA_BROWSER_${variant}_CORE})
        target_compile_options(${target} PRIVATE ${ECSIA_BROWSER_COMPILE} ${ECSIA_BROWSER_${variant}_COMPILE})
        target_compile_definitions(${target} PRIVATE ECSIA_WASM_POOL_SIZE=${ECSIA_BROWSER_${variant}_POOL})
        target_link_options(${target} PRIVATE ${ECSIA_BROWSER_LINK} ${ECSIA_BROWSER_${variant}_LINK}
                            -sEXPORT_NAME=${ECSIA_BROWSER_${variant}_EXPORT})
        # The .mjs, .wasm (and .worker.js) sit side by side: the worker imports ./<name>_threaded.mjs.
        set_target_properties(${target} PROPERTIES SUFFIX ".mjs" RUNTIME_OUTPUT_DIRECTORY ${out}
                              LINK_DEPENDS "${ECSIA_WASM_DIR}/wasm_url.post.js;${ECSIA_WASM_DIR}/shared_clock.lib.js;${ECSIA_WASM_DIR}/worker_kernels.post.js;${ECSIA_WASM_DIR}/native_import.extern.js;${ECSIA_WASM_POOL_PRE_JS}")
    endforeach()
endfunction()

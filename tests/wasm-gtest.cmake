# The GoogleTest suite built for wasm32 with em++ and run under Node: the engine as the page
# runs it, where Eigen::Index and std::size_t are 32 bits wide. Included by tests/CMakeLists.txt.

if(NOT CMAKE_SIZEOF_VOID_P EQUAL 4)
  message(FATAL_ERROR "The wasm-tests preset is for wasm32, where Eigen::Index is 32 bits wide")
endif()

# Debian ships no wasm32 GoogleTest library, only its sources (libgtest-dev): compile them here.
set(POSITIONAL_GOOGLETEST_SOURCE_DIR /usr/src/googletest CACHE PATH "GoogleTest's source tree")
set(gtest_disable_pthreads ON CACHE BOOL "" FORCE)
set(INSTALL_GTEST OFF CACHE BOOL "" FORCE)
set(BUILD_GMOCK ON CACHE BOOL "" FORCE)
add_subdirectory("${POSITIONAL_GOOGLETEST_SOURCE_DIR}" "${CMAKE_BINARY_DIR}/googletest" EXCLUDE_FROM_ALL)
# GoogleTest throws and catches across the engine: it must use the engine's exception model.
# -w: GoogleTest's own sources warn under clang 14; their warnings are not ours to fix.
foreach(library IN ITEMS gtest gtest_main gmock gmock_main)
  target_compile_options(${library} PRIVATE ${POSITIONAL_WASM_EXCEPTIONS} -w)
endforeach()
# The test programs are linked at -O1: Binaryen's -O3 passes over fourteen GoogleTest programs were
# most of this build (400 s of CPU against 188 s at -O1, on two cores). The engine and the tests are
# still compiled at -O3 with the page's flags, which is what these tests are for.
set(POSITIONAL_WASM_TEST_LINK_OPT "-O1" CACHE STRING "Link-time optimisation flag for the wasm32 test programs (empty: the build type's)")
# Which test files to build; every one by default (POSITIONAL_WASM_TEST_TOPICS narrows it).
set(POSITIONAL_WASM_TEST_TOPICS "" CACHE STRING "Test topics to build for wasm32 (empty: all)")
file(GLOB TEST_SOURCES CONFIGURE_DEPENDS "${CMAKE_CURRENT_SOURCE_DIR}/cpp/test_*.cpp")
foreach(source IN LISTS TEST_SOURCES)
  get_filename_component(topic "${source}" NAME_WE)
  if(POSITIONAL_WASM_TEST_TOPICS AND NOT topic IN_LIST POSITIONAL_WASM_TEST_TOPICS)
    continue()
  endif()
  add_executable(${topic} "${source}")
  # package.json makes every .js an ES module; Emscripten's Node loader is CommonJS.
  set_target_properties(${topic} PROPERTIES SUFFIX ".cjs")
  target_link_libraries(${topic} PRIVATE positional_engine gtest_main gmock nlohmann_json::nlohmann_json)
  target_compile_definitions(${topic} PRIVATE
    POSITIONAL_FIXTURES_DIR="${CMAKE_CURRENT_SOURCE_DIR}/fixtures")
  # NODERAWFS: the fixtures are read straight from the host's file system, as natively.
  # SINGLE_FILE: Emscripten 3.1.6 would fetch() a separate .wasm with Node 20's global fetch, which
  # cannot read a file path.
  target_link_options(${topic} PRIVATE
    ${POSITIONAL_WASM_EXCEPTIONS} -sENVIRONMENT=node -sNODERAWFS=1 -sSINGLE_FILE=1
    -sALLOW_MEMORY_GROWTH=1 -sMAXIMUM_MEMORY=2147483648 -sEXIT_RUNTIME=1 ${POSITIONAL_WASM_TEST_LINK_OPT})
  # CTest runs each through CMAKE_CROSSCOMPILING_EMULATOR, which Emscripten's toolchain sets to node.
  # One test per program (wasm32.<topic>), all its tests in one process: each process starts Node and
  # compiles the program's wasm first, which for one process per GoogleTest test was most of this
  # phase's time.
  add_test(NAME wasm32.${topic} COMMAND ${topic})
endforeach()

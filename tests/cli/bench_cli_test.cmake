# `drawpipe bench` end to end: runs it on W2 (and a real mesh when glmark2-data is there) with
# every strategy at two limits (28 rows, 140 bars in the plot), then checks the JSON it wrote against facts that do not depend on timing
# (W2 under Mesa's vsplit: 382 segments, 0.6676 fetched vertices per index, docs/workloads.md;
# `exact` never fetches more than the direct-mapped default) and the SVG plot (check_svg.py).
# Inputs: DRAWPIPE (the program), WORK_DIR, MESH (optional), PYTHON, CHECK_SVG.
file(MAKE_DIRECTORY ${WORK_DIR})
set(inputs W2)
if(MESH AND EXISTS ${MESH})
  list(APPEND inputs ${MESH})
endif()
execute_process(COMMAND ${DRAWPIPE} bench ${inputs} --strategy all --max-vertices 256 4096 --reps 1
                        --min-time 0 --threads 1 --repeat 2 --no-progress
                        --json ${WORK_DIR}/bench.json --plot ${WORK_DIR}/bench.svg
                RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "drawpipe bench failed (${rc}):\n${out}\n${err}")
endif()
message("${out}")

file(READ ${WORK_DIR}/bench.json json)
string(JSON rows LENGTH "${json}" results)
list(LENGTH inputs n_inputs)
math(EXPR expected "14 * ${n_inputs}") # 7 strategies at 2 limits
if(NOT rows EQUAL expected)
  message(FATAL_ERROR "expected ${expected} result rows, got ${rows}")
endif()
math(EXPR last "${rows} - 1")
foreach(i RANGE ${last})
  string(JSON input GET "${json}" results ${i} input)
  string(JSON strategy GET "${json}" results ${i} strategy)
  string(JSON segments GET "${json}" results ${i} segments)
  string(JSON fetched GET "${json}" results ${i} fetched_per_index)
  string(JSON mips GET "${json}" results ${i} mips)
  string(JSON limit GET "${json}" results ${i} max_vertices)
  set(fetched_${strategy}_${i} ${fetched})
  if(input STREQUAL "W2 grid-tris-u16" AND strategy STREQUAL "vsplit" AND limit EQUAL 4096)
    if(NOT segments EQUAL 382 OR NOT fetched MATCHES "^0\\.6676")
      message(FATAL_ERROR "W2 vsplit: ${segments} segments, ${fetched} fetched/index (Mesa: 382, 0.6676)")
    endif()
  endif()
  if(mips LESS_EQUAL 0)
    message(FATAL_ERROR "row ${i}: throughput ${mips}")
  endif()
endforeach()
# Rows come in strategy order per input and limit: distinct first, exact fifth.
foreach(base RANGE 0 ${last} 7)
  math(EXPR e "${base} + 4")
  string(JSON d GET "${json}" results ${base} fetched_per_index)
  string(JSON x GET "${json}" results ${e} fetched_per_index)
  if(x GREATER d)
    message(FATAL_ERROR "exact fetched ${x} per index, more than distinct's ${d}")
  endif()
endforeach()

# The plot: three panels with a bar per row, plus first draw and redraw per (indexed) row;
# everything inside the canvas, no label over another, rendered to PNG (check_svg.py).
math(EXPR expect_bars "5 * ${rows}")
if(NOT PYTHON)
  message(FATAL_ERROR "python3 is needed to check the plot (quickstart.sh installs it)")
endif()
execute_process(COMMAND ${PYTHON} ${CHECK_SVG} ${WORK_DIR}/bench.svg --bars ${expect_bars}
                RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "bench --plot: ${out}${err}")
endif()
message("${out}")
# --repeat 2: every row drew once through the split cache (a miss) and twice more (hits).
string(JSON misses GET "${json}" split_cache misses)
string(JSON hits GET "${json}" split_cache hits)
math(EXPR want_hits "2 * ${rows}")
if(NOT misses EQUAL rows OR NOT hits EQUAL want_hits)
  message(FATAL_ERROR "split cache: ${misses} misses, ${hits} hits for ${rows} rows x 3 draws")
endif()
string(JSON redraw GET "${json}" results 0 redraw_us) # present on every indexed row

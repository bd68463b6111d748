# `drawpipe render MESH --color-by instance|middle-end-thread`, looked at pixel by pixel (the
# --pixels listing of a small picture): each colour must come from what the pipeline did.
# --flat keeps one exact colour per key; without it the key colours are lit.
# Inputs: DRAWPIPE (the program), MESH (a mesh file), WORK_DIR.
file(MAKE_DIRECTORY ${WORK_DIR})

# lit_pixels(OUT ARGS...): runs `drawpipe render MESH ARGS --pixels` at 96 x 64 and sets OUT to
# its lines, `X Y RRGGBBAA` each, as a list.
function(lit_pixels out)
  execute_process(COMMAND ${DRAWPIPE} render ${MESH} ${ARGN} --pixels --width 96 --height 64
                  RESULT_VARIABLE rc OUTPUT_VARIABLE text ERROR_VARIABLE err TIMEOUT 60)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "render ${ARGN}: exit ${rc}\n${err}")
  endif()
  string(REGEX MATCHALL "[0-9]+ [0-9]+ [0-9A-F]+" lines "${text}")
  list(LENGTH lines n)
  if(n LESS 200)
    message(FATAL_ERROR "render ${ARGN}: only ${n} lit pixels of 6144")
  endif()
  set(${out} "${lines}" PARENT_SCOPE)
endfunction()

# colours_of(OUT PIXELS): the distinct colours of the pixels.
function(colours_of out pixels)
  set(colours)
  foreach(p IN LISTS pixels)
    string(REGEX MATCH "[0-9A-F]+$" c "${p}")
    list(APPEND colours ${c})
  endforeach()
  list(REMOVE_DUPLICATES colours)
  set(${out} "${colours}" PARENT_SCOPE)
endfunction()

# Three instances, side by side along x: exactly three colours, each in its own band of
# columns, instance 0 (the palette's first colour, F24949: red) leftmost.
lit_pixels(pixels --flat --color-by instance --instances 3 --threads 2)
colours_of(colours "${pixels}")
list(LENGTH colours n)
if(NOT n EQUAL 3)
  message(FATAL_ERROR "--color-by instance --instances 3: ${n} colours (${colours}), expected 3")
endif()
foreach(c IN LISTS colours)
  set(lo_${c} 1000)
  set(hi_${c} -1)
endforeach()
foreach(p IN LISTS pixels)
  string(REGEX MATCH "^([0-9]+) [0-9]+ ([0-9A-F]+)$" _ "${p}")
  set(x ${CMAKE_MATCH_1})
  set(c ${CMAKE_MATCH_2})
  if(x LESS lo_${c})
    set(lo_${c} ${x})
  endif()
  if(x GREATER hi_${c})
    set(hi_${c} ${x})
  endif()
endforeach()
foreach(a IN LISTS colours)
  foreach(b IN LISTS colours)
    if(NOT a STREQUAL b AND NOT (hi_${a} LESS lo_${b} OR hi_${b} LESS lo_${a}))
      message(FATAL_ERROR "instances ${a} (columns ${lo_${a}}-${hi_${a}}) and ${b} "
                          "(${lo_${b}}-${hi_${b}}) overlap")
    endif()
  endforeach()
endforeach()
foreach(c IN LISTS colours)
  if(NOT c STREQUAL "F24949FF" AND NOT lo_F24949FF LESS lo_${c})
    message(FATAL_ERROR "instance 0 (F24949FF) is not the leftmost: columns ${lo_F24949FF}, "
                        "${c} from ${lo_${c}}")
  endif()
endforeach()

# One instance: one colour, however the mesh is split.
lit_pixels(pixels --flat --color-by instance --max-vertices 64)
colours_of(colours "${pixels}")
list(LENGTH colours n)
if(NOT n EQUAL 1)
  message(FATAL_ERROR "--color-by instance, one instance: ${n} colours (${colours})")
endif()

# One thread shades every segment: one colour, though the mesh splits into many segments.
lit_pixels(pixels --flat --color-by middle-end-thread --threads 1 --max-vertices 64)
colours_of(colours "${pixels}")
list(LENGTH colours n)
if(NOT n EQUAL 1)
  message(FATAL_ERROR "--color-by middle-end-thread --threads 1: ${n} colours (${colours})")
endif()
# ... while the same split coloured by segment shows many.
lit_pixels(pixels --flat --color-by segment --threads 1 --max-vertices 64)
colours_of(colours "${pixels}")
list(LENGTH colours n)
if(n LESS 20)
  message(FATAL_ERROR "--color-by segment --max-vertices 64: only ${n} colours")
endif()

# Two threads: no more colours than threads (which threads the pipeline used is its own
# business), and the line saying where the picture went names the count.
lit_pixels(pixels --flat --color-by middle-end-thread --threads 2 --max-vertices 64)
colours_of(colours "${pixels}")
list(LENGTH colours n)
if(n GREATER 2)
  message(FATAL_ERROR "--color-by middle-end-thread --threads 2: ${n} colours (${colours})")
endif()
execute_process(COMMAND ${DRAWPIPE} render ${MESH} --color-by middle-end-thread --threads 1
                        --png ${WORK_DIR}/threads1.png
                RESULT_VARIABLE rc ERROR_VARIABLE err)
if(NOT rc EQUAL 0 OR NOT err MATCHES "each middle-end thread in its own colour: 1 thread shaded")
  message(FATAL_ERROR "render --color-by middle-end-thread --threads 1: exit ${rc}\n${err}")
endif()
execute_process(COMMAND ${DRAWPIPE} render ${MESH} --color-by instance --instances 3
                        --png ${WORK_DIR}/instances3.png
                RESULT_VARIABLE rc ERROR_VARIABLE err)
if(NOT rc EQUAL 0 OR NOT err MATCHES "each instance in its own colour: 3 instances")
  message(FATAL_ERROR "render --color-by instance --instances 3: exit ${rc}\n${err}")
endif()

# Without --flat the key colours are lit: the same split (20 segments at the default limit)
# shows far more colours than segments, the shading across each, so the shape shows through.
lit_pixels(pixels --color-by segment --threads 1)
colours_of(lit_colours "${pixels}")
lit_pixels(pixels --flat --color-by segment --threads 1)
colours_of(flat_colours "${pixels}")
list(LENGTH lit_colours n_lit)
list(LENGTH flat_colours n_flat)
math(EXPR want "10 * ${n_flat}")
if(n_flat GREATER 30 OR n_lit LESS want)
  message(FATAL_ERROR "--color-by segment, lit: ${n_lit} colours, flat: ${n_flat}; lit should "
                      "show at least ${want}")
endif()

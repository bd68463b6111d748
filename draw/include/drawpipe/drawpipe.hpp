// drawpipe's public header for drivers: the draw context and everything a driver hands it.
//
//   draw call ──> front end ──segments──> middle end ──shaded batches──> backend
//                 (draw/)                 (middle_ends/)                 (your Backend)
//
// Link drawpipe::middle_ends and call register_builtin_middle_ends() (middle_ends/builtin.hpp)
// once to bind drawpipe's own middle ends by name; examples/minimal_driver.cpp shows the rest.
#pragma once

#include "drawpipe/backend.hpp"
#include "drawpipe/context.hpp"
#include "drawpipe/error.hpp"
#include "drawpipe/middle_end.hpp"
#include "drawpipe/registry.hpp"
#include "drawpipe/types.hpp"

// drawpipe's public header for drivers: the draw context and everything a driver hands it.
//
//   draw call ──> front end ──segments──> middle end ──shaded batches──> backend
//                 (draw/)                 (fetch_shade or      (your Backend)
//                                          middle_ends/)
//
// "fetch_shade" is always registered; link drawpipe::middle_ends and call
// register_builtin_middle_ends() (<drawpipe/middle_ends.hpp>) once for the hardware models.
// examples/minimal_driver.cpp shows the rest.
#pragma once

#include "drawpipe/backend.hpp"
#include "drawpipe/context.hpp"
#include "drawpipe/decompose.hpp"
#include "drawpipe/error.hpp"
#include "drawpipe/middle_end.hpp"
#include "drawpipe/registry.hpp"
#include "drawpipe/shader.hpp"
#include "drawpipe/stats.hpp"
#include "drawpipe/stream_output.hpp"
#include "drawpipe/types.hpp"

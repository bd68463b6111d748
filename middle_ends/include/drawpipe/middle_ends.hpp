// Registers drawpipe's hardware middle ends ("gen7", "a4xx", "a4xx_naive", "mali") in
// MiddleEndRegistry::global(), beside the "fetch_shade" it always has. Idempotent.
#pragma once

namespace drawpipe {
void register_builtin_middle_ends();
}

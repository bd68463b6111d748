// Registers drawpipe's own middle ends in MiddleEndRegistry::global(). Idempotent.
#pragma once

namespace drawpipe {
void register_builtin_middle_ends();
}

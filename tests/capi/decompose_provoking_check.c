/* drawpipe_decompose refuses a provoking value that is not a drawpipe_provoking. A C driver can
 * pass one; a C++ test cannot form it without undefined behaviour (capi_parity_test leaves
 * this case to C). */
#include <drawpipe/drawpipe.h>

#include <stdio.h>
#include <string.h>

static void count_primitives(void* user, uint32_t n, const uint32_t* elts) {
    (void)n;
    (void)elts;
    ++*(int*)user;
}

int main(void) {
    const uint32_t elts[3] = {0, 1, 2};
    const char* want = "drawpipe_decompose: provoking: 2 is not a valid value";
    int emitted = 0;
    const drawpipe_status status = drawpipe_decompose(
        DRAWPIPE_PRIM_TRIANGLES, (drawpipe_provoking)2, elts, 3, count_primitives, &emitted);
    if (status != DRAWPIPE_ERROR_INVALID_VALUE || strcmp(drawpipe_last_error(), want) != 0 ||
        emitted != 0) {
        fprintf(stderr, "status %d, %d emitted, error '%s' (want '%s')\n", (int)status, emitted,
                drawpipe_last_error(), want);
        return 1;
    }
    return 0;
}

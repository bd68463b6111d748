/* drawpipe inside Mesa's draw module: which part of it DRAWPIPE_MESA hands to drawpipe. */
#ifndef DRAW_PT_DRAWPIPE_H
#define DRAW_PT_DRAWPIPE_H

struct draw_context;
struct draw_pt_front_end;

enum drawpipe_mesa_mode {
   DRAWPIPE_MESA_OFF,   /* Mesa's own draw module, untouched */
   DRAWPIPE_MESA_FRONT, /* drawpipe's front end in vsplit's place */
   DRAWPIPE_MESA_SHADE, /* and the vertex shader of its segments on drawpipe's threads */
   DRAWPIPE_MESA_WHOLE, /* and the hand-off prepared there too; rasterizer discard ends at
                         * stream output */
};

/* DRAWPIPE_MESA=off|front|shade|whole, read once per process. */
enum drawpipe_mesa_mode draw_pt_drawpipe_mode(void);

struct draw_pt_front_end *draw_pt_drawpipe(struct draw_context *draw);

#endif

// Golden traces: every primitive type under both provoking conventions, with and without
// restart, with counts that leave incomplete primitives. Expected text is written by hand
// from docs/gl-order.md.
#include "support/trace_util.hpp"

#include <gtest/gtest.h>

#include <sstream>

using namespace drawpipe;

namespace {

// "tri 0 1 2; line 3 4" -> "tri 0/0 1/0 2/0\nline 3/0 4/0\n" (instance 0, no attributes).
std::string expand(std::string_view shorthand) {
    std::string out;
    std::istringstream in{std::string(shorthand)};
    std::string item;
    while (std::getline(in, item, ';')) {
        std::istringstream words(item);
        std::string w;
        bool first = true;
        while (words >> w) {
            if (first)
                out += w, first = false;
            else
                out += " " + w + "/0";
        }
        if (!first) out += "\n";
    }
    return out;
}

struct Golden {
    const char* prim;
    uint32_t count;
    const char* last;
    const char* first;
};

const Golden kLinear[] = {
    {"points", 3, "point 0; point 1; point 2", "point 0; point 1; point 2"},
    {"lines", 7, "line 0 1; line 2 3; line 4 5", "line 0 1; line 2 3; line 4 5"},
    {"line_strip", 4, "line 0 1; line 1 2; line 2 3", "line 0 1; line 1 2; line 2 3"},
    {"line_loop", 4, "line 0 1; line 1 2; line 2 3; line 3 0",
     "line 0 1; line 1 2; line 2 3; line 3 0"},
    {"line_loop", 2, "line 0 1; line 1 0", "line 0 1; line 1 0"},
    {"line_loop", 1, "", ""},
    {"triangles", 7, "tri 0 1 2; tri 3 4 5", "tri 0 1 2; tri 3 4 5"},
    {"triangle_strip", 7, "tri 0 1 2; tri 2 1 3; tri 2 3 4; tri 4 3 5; tri 4 5 6",
     "tri 0 1 2; tri 1 3 2; tri 2 3 4; tri 3 5 4; tri 4 5 6"},
    {"triangle_strip", 2, "", ""},
    {"triangle_fan", 5, "tri 0 1 2; tri 0 2 3; tri 0 3 4", "tri 1 2 0; tri 2 3 0; tri 3 4 0"},
    {"polygon", 5, "tri 1 2 0; tri 2 3 0; tri 3 4 0", "tri 0 1 2; tri 0 2 3; tri 0 3 4"},
    {"quads", 11, "tri 0 1 3; tri 1 2 3; tri 4 5 7; tri 5 6 7",
     "tri 0 1 2; tri 0 2 3; tri 4 5 6; tri 4 6 7"},
    {"quad_strip", 7, "tri 2 0 3; tri 0 1 3; tri 4 2 5; tri 2 3 5",
     "tri 0 3 2; tri 0 1 3; tri 2 5 4; tri 2 3 5"},
    {"lines_adjacency", 9, "line 1 2; line 5 6", "line 1 2; line 5 6"},
    {"line_strip_adjacency", 6, "line 1 2; line 2 3; line 3 4", "line 1 2; line 2 3; line 3 4"},
    {"triangles_adjacency", 13, "tri 0 2 4; tri 6 8 10", "tri 0 2 4; tri 6 8 10"},
    {"triangle_strip_adjacency", 11, "tri 0 2 4; tri 4 2 6; tri 4 6 8",
     "tri 0 2 4; tri 2 6 4; tri 4 6 8"},
    {"triangle_strip_adjacency", 5, "", ""},
};

std::string linear_draw(const Golden& g, const char* provoking) {
    return std::string("prim ") + g.prim + "\nindex none\nstart 0\ncount " +
           std::to_string(g.count) + "\nprovoking " + provoking + "\n";
}

} // namespace

TEST(GoldenTrace, EveryPrimitiveBothConventions) {
    for (const Golden& g : kLinear) {
        SCOPED_TRACE(std::string(g.prim) + " count " + std::to_string(g.count));
        EXPECT_EQ(test::trace_of_text(linear_draw(g, "last")), expand(g.last));
        EXPECT_EQ(test::trace_of_text(linear_draw(g, "first")), expand(g.first));
    }
}

TEST(GoldenTrace, DocExamples) {
    EXPECT_EQ(test::trace_of_text("prim triangle_fan\nindex u16\nindices 10 11 12 13 14\n"),
              expand("tri 10 11 12; tri 10 12 13; tri 10 13 14"));
    EXPECT_EQ(test::trace_of_text(
                  "prim triangle_fan\nindex u16\nindices 10 11 12 13 14\nprovoking first\n"),
              expand("tri 11 12 10; tri 12 13 10; tri 13 14 10"));
    EXPECT_EQ(test::trace_of_text("prim line_loop\nindex u8\nindices 5 6 7 8\n"),
              expand("line 5 6; line 6 7; line 7 8; line 8 5"));
}

TEST(GoldenTrace, RestartRunsStartFromScratch) {
    EXPECT_EQ(
        test::trace_of_text(
            "prim line_loop\nindex u16\nindices 0 1 2 9 3 4 5 9 6 9 7 8\nrestart 9\n"),
        expand("line 0 1; line 1 2; line 2 0; line 3 4; line 4 5; line 5 3; line 7 8; line 8 7"));
    // Strip parity restarts in each run; a 2-vertex run draws nothing.
    EXPECT_EQ(
        test::trace_of_text("prim triangle_strip\nindex u32\nindices 0 1 2 3 4294967295 5 6 7 8 "
                            "4294967295 9 10\nrestart 4294967295\n"),
        expand("tri 0 1 2; tri 2 1 3; tri 5 6 7; tri 7 6 8"));
    EXPECT_EQ(
        test::trace_of_text("prim triangle_fan\nindex u8\nindices 1 2 3 4 200 5 6 7\nrestart 200\n"
                            "provoking first\n"),
        expand("tri 2 3 1; tri 3 4 1; tri 6 7 5"));
    // With restart off, the type's maximum is an ordinary vertex.
    EXPECT_EQ(test::trace_of_text("prim triangles\nindex u8\nindices 0 255 1\n"),
              expand("tri 0 255 1"));
    // A restart value that does not fit the index type never matches.
    EXPECT_EQ(test::trace_of_text("prim triangles\nindex u8\nindices 0 255 1\nrestart 65535\n"),
              expand("tri 0 255 1"));
}

TEST(GoldenTrace, RestartComparesBeforeBaseVertex) {
    EXPECT_EQ(
        test::trace_of_text("prim points\nindex u16\nindices 1 7 2\nrestart 7\nbase_vertex 5\n"),
        expand("point 6; point 7"));
}

TEST(GoldenTrace, InstancesAndAttributes) {
    const std::string text =
        "prim triangles\nindex u16\nindices 0 1 2\ninstances 2\nbase_instance 3\n"
        "attrib 0\nattrib 1\nbase_vertex 4\n";
    EXPECT_EQ(test::trace_of_text(text),
              "tri 4/0[4,3] 5/0[5,3] 6/0[6,3]\ntri 4/1[4,4] 5/1[5,4] 6/1[6,4]\n");
    EXPECT_EQ(test::trace_of_text("prim points\nindex none\ncount 2\ninstances 0\n"), "");
}

TEST(GoldenTrace, SplitLineLoopClosesOnceAtTheEnd) {
    const std::string text = "prim line_loop\nindex none\nstart 3\ncount 9\n";
    const std::string expected = expand("line 3 4; line 4 5; line 5 6; line 6 7; line 7 8; line 8 "
                                        "9; line 9 10; line 10 11; line 11 3");
    for (uint32_t limit : {3u, 4u, 5u, 8u, 9u, 100u})
        EXPECT_EQ(test::trace_of_text(text, limit), expected) << limit;
}

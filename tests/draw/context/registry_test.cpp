// The middle-end registry: fetch_shade is always there, names are unique, unknown names
// list the known ones, and a registered instance is what a context binds.
#include "drawpipe/error.hpp"
#include "drawpipe/extend/fetch_shade.hpp"
#include "drawpipe/registry.hpp"

#include <gtest/gtest.h>

using namespace drawpipe;

TEST(Registry, FetchShadeIsAlwaysRegistered) {
    const auto m = MiddleEndRegistry::global().find("fetch_shade");
    ASSERT_TRUE(m);
    EXPECT_EQ(m->name(), "fetch_shade");
    EXPECT_TRUE(MiddleEndRegistry::global().contains("fetch_shade"));
}

TEST(Registry, AddReplacesByNameAndFindReturnsTheInstance) {
    MiddleEndRegistry r;
    const auto a = std::make_shared<FetchShade>(64);
    const auto b = std::make_shared<FetchShade>(128);
    r.add("x", "first", a);
    r.add("y", "second", a);
    r.add("x", "replaced", b);
    ASSERT_EQ(r.entries().size(), 2u);
    EXPECT_EQ(r.entries()[0].description, "replaced");
    EXPECT_EQ(r.find("x"), b);
    EXPECT_EQ(r.find("y"), a);
}

TEST(Registry, UnknownNameListsTheKnownOnes) {
    MiddleEndRegistry r;
    r.add("alpha", "", std::make_shared<FetchShade>());
    r.add("beta", "", std::make_shared<FetchShade>());
    try {
        r.find("gamma");
        FAIL() << "no error";
    } catch (const Error& e) {
        EXPECT_EQ(e.code(), ErrorCode::not_found);
        EXPECT_NE(std::string(e.what()).find("known: alpha, beta"), std::string::npos) << e.what();
    }
    EXPECT_FALSE(r.contains("gamma"));
}

// This binary never calls register_builtin_middle_ends(): asking for a hardware model says to.
TEST(Registry, AMissingHardwareModelSaysToRegisterTheBuiltins) {
    try {
        MiddleEndRegistry::global().find("gen7");
        FAIL() << "no error";
    } catch (const Error& e) {
        EXPECT_EQ(e.code(), ErrorCode::not_found);
        EXPECT_NE(std::string(e.what()).find("register_builtin_middle_ends()"), std::string::npos)
            << e.what();
    }
}

TEST(Registry, NullInstanceIsRefused) {
    MiddleEndRegistry r;
    EXPECT_THROW(r.add("null", "", nullptr), Error);
    EXPECT_TRUE(r.entries().empty());
}

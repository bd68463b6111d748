// Mali attribute arithmetic, checked exhaustively: padded vertex counts against a plain
// reading of the rule (middle_ends/mali/README.md, "Padded vertex count"), magic divisors against
// integer division, the gl_VertexID / gl_InstanceID records, and the record bit layouts.
#include "drawpipe/error.hpp"
#include "middle_ends/mali/descriptors.hpp"
#include "middle_ends/mali/padded_count.hpp"

#include <gtest/gtest.h>

#include <random>
#include <set>
#include <vector>

using namespace drawpipe;
using namespace drawpipe::mali;

namespace {

// The rule as the reference states it, with loops and arithmetic instead of bit tricks.
uint64_t reference_padded(uint64_t n) {
    if (n < 10) return n;
    if (n < 20) return n % 2 == 0 ? n : n + 1;
    uint64_t h = 0; // bit length
    while ((uint64_t(1) << h) <= n) ++h;
    const uint64_t s = h - 4;
    const uint64_t p = uint64_t(1) << s;
    const uint64_t nibble = n / p;
    const uint64_t middle = (nibble / 2) % 4, low = nibble % 2;
    if (middle == 0) return low == 0 ? 9 * p : 5 * 2 * p;
    if (middle == 1) return 3 * 4 * p;
    if (middle == 2) return 7 * 2 * p;
    return 16 * p;
}

// Odd part of v is one the hardware divider handles (1, 3, 5, 7, 9).
bool encodable_shape(uint64_t v) {
    if (v == 0) return false;
    while (v % 2 == 0) v /= 2;
    return v == 1 || v == 3 || v == 5 || v == 7 || v == 9;
}

// The division the hardware performs for divisor d with the descriptor the driver picks.
AttributeDescriptor divide_by(uint32_t d) {
    return per_instance_descriptor(1, d, true);
}

} // namespace

// ---- padded vertex count ----

TEST(MaliPadded, WorkedValues) {
    // n, padded, shift, odd (README.md, "Padded vertex count").
    const uint32_t table[][4] = {
        {3, 3, 0, 1},     {9, 9, 0, 4},     {11, 12, 2, 1},      {13, 14, 1, 3},
        {17, 18, 1, 4},   {19, 20, 2, 2},   {20, 24, 3, 1},      {24, 28, 2, 3},
        {32, 36, 2, 4},   {48, 56, 3, 3},   {64, 72, 3, 4},      {70, 72, 3, 4},
        {100, 112, 4, 3}, {128, 144, 4, 4}, {1000, 1024, 10, 0}, {4096, 4608, 9, 4},
    };
    for (const auto& row : table) {
        SCOPED_TRACE(row[0]);
        EXPECT_EQ(padded_vertex_count(row[0]), row[1]);
        const auto field = encode_padded_field(row[1]);
        ASSERT_TRUE(field);
        EXPECT_EQ(*field & 31, row[2]);
        EXPECT_EQ(*field >> 5, row[3]);
    }
    // Where the seed's early table (3 -> 4, 8-11 -> 12, "always at least one more") and
    // the shipping driver disagree, the driver wins.
    EXPECT_EQ(padded_vertex_count(3), 3u);
    EXPECT_EQ(padded_vertex_count(8), 8u);
    EXPECT_EQ(padded_vertex_count(31), 32u);
    EXPECT_EQ(padded_vertex_count(63), 64u);
}

TEST(MaliPadded, EveryCountToTwoToTheTwenty) {
    uint32_t previous = 0;
    for (uint32_t n = 1; n <= (1u << 20); ++n) {
        const uint32_t p = padded_vertex_count(n);
        if (p != reference_padded(n) || p < n || !encodable_shape(p) || p < previous) {
            ADD_FAILURE() << "n = " << n << ": padded " << p << ", reference "
                          << reference_padded(n);
            return;
        }
        const auto field = encode_padded_field(p);
        if (!field || decode_padded_field(*field) != p) {
            ADD_FAILURE() << "n = " << n << ": padded " << p << " does not round-trip the field";
            return;
        }
        previous = p; // monotonic: a segment's padded count is bounded by its limit's
    }
}

TEST(MaliPadded, SampledLargeCounts) {
    std::mt19937 rng(20);
    std::vector<uint32_t> ns = {kMaxPaddableCount, 0xC0000000u, 0x80000000u, 0x7FFFFFFFu};
    for (uint32_t b = 21; b <= 32; ++b) {
        ns.push_back(uint32_t((uint64_t(1) << b) - 1));
        ns.push_back(uint32_t(uint64_t(1) << (b - 1)));
    }
    for (int i = 0; i < 200000; ++i)
        ns.push_back(std::uniform_int_distribution<uint32_t>(1u << 20, kMaxPaddableCount)(rng));
    for (const uint32_t n : ns) {
        if (n > kMaxPaddableCount) continue;
        const uint64_t p = padded_vertex_count(n);
        ASSERT_EQ(p, reference_padded(n)) << n;
        ASSERT_GE(p, n);
        ASSERT_TRUE(encode_padded_field(p)) << n;
    }
    EXPECT_GT(reference_padded(uint64_t(kMaxPaddableCount) + 1), UINT32_MAX);
}

TEST(MaliPadded, IdvsRoundsToFourFirst) {
    for (uint32_t n = 1; n <= (1u << 20); ++n) {
        const uint32_t p = padded_vertex_count_idvs(n);
        if (p != reference_padded((n + 3) / 4 * 4) || p < n || p % 4 != 0) {
            ADD_FAILURE() << "n = " << n << ": IDVS padded " << p;
            return;
        }
    }
    EXPECT_EQ(padded_vertex_count_idvs(9), 12u);
    EXPECT_EQ(padded_vertex_count_idvs(70), 80u); // 72 = 0b1001000 -> 5 * 2^4
}

TEST(MaliPadded, OnlyInstancedJobsPad) {
    EXPECT_EQ(job_vertex_count(70, 1, false), 70u);
    EXPECT_EQ(job_vertex_count(70, 1, true), 70u);
    EXPECT_EQ(job_vertex_count(70, 2, false), 72u);
    EXPECT_EQ(job_vertex_count(70, 2, true), 80u);
}

TEST(MaliPadded, FieldEncoding) {
    for (uint32_t byte = 0; byte < 256; ++byte) {
        const uint64_t v = decode_padded_field(uint8_t(byte));
        EXPECT_EQ(v, uint64_t(2 * (byte >> 5) + 1) << (byte & 31));
        const auto again = encode_padded_field(v);
        ASSERT_TRUE(again);
        EXPECT_EQ(*again, byte);
    }
    EXPECT_FALSE(encode_padded_field(0));
    EXPECT_FALSE(encode_padded_field(17));                // odd factor 17: odd = 8
    EXPECT_FALSE(encode_padded_field(uint64_t(1) << 32)); // shift 32
    EXPECT_EQ(*encode_padded_field(72), 0x83);            // 9 * 2^3
}

// ---- magic divisors ----

TEST(MaliMagic, WorkedDivisors) {
    // d, shift, stored magic, extra_flags (README.md, "Magic divisor").
    const uint32_t table[][4] = {
        {3, 1, 0x2AAAAAAA, 1},   {5, 2, 0x4CCCCCCC, 1},    {7, 2, 0x12492492, 1},
        {11, 3, 0x3A2E8BA3, 0},  {72, 6, 0x638E38E3, 1},   {144, 7, 0x638E38E3, 1},
        {216, 7, 0x17B425ED, 1}, {1000, 9, 0x03126E98, 0},
    };
    for (const auto& row : table) {
        const MagicDivisor m = compute_magic_divisor(row[0]);
        EXPECT_EQ(m.shift, row[1]) << row[0];
        EXPECT_EQ(m.magic_divisor, row[2]) << row[0];
        EXPECT_EQ(m.extra_flags, row[3]) << row[0];
    }
}

TEST(MaliMagic, PowersOfTwoAreShifts) {
    for (uint32_t k = 0; k < 32; ++k) {
        const AttributeDescriptor d = divide_by(1u << k);
        EXPECT_EQ(d.mode, AttributeMode::pot_divisor);
        EXPECT_EQ(d.shift, k);
    }
    EXPECT_EQ(divide_by(6).mode, AttributeMode::npot_divisor);
}

TEST(MaliMagic, RoundDownFlagIsNeeded) {
    // The +1 of a round-down descriptor is what makes it exact: without it d = 3 first
    // fails at L = 3.
    AttributeDescriptor d = divide_by(3);
    ASSERT_EQ(d.extra_flags, 1u);
    d.extra_flags = 0;
    uint32_t first_bad = 0;
    while (first_bad < 100 && attribute_index(d, first_bad) == first_bad / 3) ++first_bad;
    EXPECT_EQ(first_bad, 3u);
}

namespace {

// Checks the hardware division by d on the edges and a spread of x; returns the first
// failing x or nullopt.
std::optional<uint32_t> check_divisor(uint32_t d, std::mt19937& rng, int random_x) {
    const AttributeDescriptor desc = divide_by(d);
    auto bad = [&](uint64_t x) {
        return x <= UINT32_MAX && attribute_index(desc, uint32_t(x)) != uint32_t(x) / d;
    };
    const uint64_t top = UINT32_MAX;
    const uint64_t last_multiple = top - top % d;
    const uint64_t xs[] = {0,
                           1,
                           d - 1ull,
                           d,
                           d + 1ull,
                           2ull * d - 1,
                           2ull * d,
                           2ull * d + 1,
                           last_multiple - 1,
                           last_multiple,
                           last_multiple + 1,
                           top - 1,
                           top,
                           (top / 2) - (top / 2) % d,
                           (top / 2) - (top / 2) % d - 1};
    for (const uint64_t x : xs)
        if (bad(x)) return uint32_t(x);
    const uint64_t multiples = top / d;
    for (int i = 0; i < random_x; ++i) {
        const uint64_t q = std::uniform_int_distribution<uint64_t>(0, multiples)(rng);
        for (const uint64_t x : {q * d - 1, q * d, q * d + 1, q * d + d - 1})
            if (bad(x)) return uint32_t(x); // q = 0 wraps the first past 2^32: skipped
        const uint32_t x = uint32_t(rng());
        if (bad(x)) return x;
    }
    return std::nullopt;
}

} // namespace

TEST(MaliMagic, EveryDivisorToTwoToTheSixteen) {
    std::mt19937 rng(16);
    for (uint32_t d = 1; d <= (1u << 16); ++d) {
        const auto x = check_divisor(d, rng, 4);
        if (x) {
            ADD_FAILURE() << "d = " << d << " fails at x = " << *x;
            return;
        }
    }
}

TEST(MaliMagic, SampledDivisorsToTwoToTheThirtyTwo) {
    std::mt19937 rng(32);
    std::vector<uint32_t> ds = {
        UINT32_MAX, UINT32_MAX - 1, 0x7FFFFFFFu, 0x80000001u,
        641,        6700417,        139188756}; // the last: Mesa's double ceiling is one lower
    for (uint32_t k = 17; k < 32; ++k)
        ds.insert(ds.end(), {(1u << k) - 1, (1u << k) + 1, 3u << (k - 1)});
    for (int i = 0; i < 3000000; ++i) {
        // Spread over magnitudes: a random bit length, then random bits below it.
        const uint32_t bits = std::uniform_int_distribution<uint32_t>(17, 32)(rng);
        const uint32_t top = bits == 32 ? 0 : (1u << bits);
        uint32_t d = uint32_t(rng());
        if (top) d = (d & (top - 1)) | (top >> 1);
        if (d != 0) ds.push_back(d);
    }
    for (const uint32_t d : ds) {
        const auto x = check_divisor(d, rng, 1);
        if (x) {
            ADD_FAILURE() << "d = " << d << " fails at x = " << *x;
            return;
        }
    }
}

namespace {

// Literally every 32-bit x: q = the hardware's quotient is right iff q * d <= x < q * d + d
// (no division in the loop; 64-bit so a wrong q cannot wrap into range).
uint64_t failures_over_all_x(uint32_t d) {
    const AttributeDescriptor desc = divide_by(d);
    uint64_t failures = 0;
    for (uint64_t block = 0; block < (uint64_t(1) << 32); block += 1 << 16) {
        uint32_t bad = 0;
        for (uint64_t x = block; x < block + (1 << 16); ++x)
            bad += x - uint64_t(attribute_index(desc, uint32_t(x))) * d >= d;
        failures += bad;
    }
    return failures;
}

} // namespace

// The tightest cases: 3 and 2^32 - 1 round down with error exactly 2^shift (the bound);
// 65533 rounds up with error 0.9995 * 2^shift, the closest to its bound below 2^16.
TEST(MaliMagic, EveryXForTightDivisors) {
    for (const uint32_t d : {3u, 65533u, UINT32_MAX}) EXPECT_EQ(failures_over_all_x(d), 0u) << d;
}

// More hard divisors over every x, several seconds each: run with
//   test_mali_arith --gtest_also_run_disabled_tests --gtest_filter='*EveryXForMoreDivisors*'
TEST(MaliMagic, DISABLED_EveryXForMoreDivisors) {
    for (const uint32_t d :
         {5u, 7u, 11u, 641u, 65531u, 6700417u, 0x7FFFFFFFu, 0x80000001u, 139188756u})
        EXPECT_EQ(failures_over_all_x(d), 0u) << d;
}

// ---- modulus ----

TEST(MaliModulus, EveryShapeMatchesTheRemainder) {
    std::mt19937 rng(3);
    for (uint32_t p = 0; p < 8; ++p) {
        for (uint32_t r = 0; r < 32; ++r) {
            const AttributeDescriptor d{AttributeMode::modulus, r, p, 0, 0, false};
            const uint64_t m = uint64_t(2 * p + 1) << r;
            auto check = [&](uint64_t L) {
                if (L > UINT32_MAX) return;
                ASSERT_EQ(attribute_index(d, uint32_t(L)), L % m)
                    << "p " << p << " r " << r << " L " << L;
            };
            for (uint64_t L : {uint64_t(0), uint64_t(1), m - 1, m, m + 1, 2 * m - 1,
                               uint64_t(UINT32_MAX), uint64_t(UINT32_MAX) - 1})
                check(L);
            for (int i = 0; i < 20000; ++i) check(rng());
        }
    }
}

// ---- system-value records ----

TEST(MaliRecords, VertexAndInstanceIdsDecodeEveryPaddedCount) {
    std::set<uint32_t> padded;
    for (uint32_t n = 2; n <= 70000; ++n) padded.insert(padded_vertex_count(n));
    for (uint32_t n = 2; n <= 70000; ++n) padded.insert(padded_vertex_count_idvs(n));
    std::mt19937 rng(5);
    for (const uint32_t p : padded) {
        const AttributeDescriptor vid = vertex_id_descriptor(p, true);
        const AttributeDescriptor iid = instance_id_descriptor(p, true);
        const uint64_t max_instances = (uint64_t(1) << 32) / p;
        auto check = [&](uint64_t L) {
            if (L > UINT32_MAX) return;
            ASSERT_EQ(attribute_index(vid, uint32_t(L)), L % p) << "padded " << p << " L " << L;
            ASSERT_EQ(attribute_index(iid, uint32_t(L)), L / p) << "padded " << p << " L " << L;
        };
        for (uint64_t i : {uint64_t(0), uint64_t(1), uint64_t(2), max_instances - 1,
                           std::uniform_int_distribution<uint64_t>(0, max_instances - 1)(rng)})
            for (uint64_t L : {i * p, i * p + 1, i * p + p - 1}) check(L);
        check(max_instances * p - 1);
    }
    // Not instanced: vertex = L, instance = 0 for every L a job can have.
    for (uint32_t L : {0u, 1u, 70000u, 0x7FFFFFFFu}) {
        EXPECT_EQ(attribute_index(vertex_id_descriptor(70000, false), L), L);
        EXPECT_EQ(attribute_index(instance_id_descriptor(70000, false), L), 0u);
    }
}

TEST(MaliRecords, DriverChoicesForADraw) {
    // 70 vertices, 3 instances (README.md, "Magic divisor"): padded 72.
    const uint32_t padded = padded_vertex_count(70);
    const AttributeDescriptor per_vertex = per_vertex_descriptor(padded, true);
    EXPECT_EQ(per_vertex.mode, AttributeMode::modulus);
    EXPECT_EQ(per_vertex.shift, 3u);
    EXPECT_EQ(per_vertex.extra_flags, 4u);
    EXPECT_EQ(attribute_index(per_vertex, 143), 71u);

    const AttributeDescriptor div1 = per_instance_descriptor(padded, 1, true);
    EXPECT_EQ(div1.mode, AttributeMode::npot_divisor);
    EXPECT_EQ(div1.shift, 6u);
    EXPECT_EQ(div1.magic_divisor, 0x638E38E3u);
    EXPECT_EQ(div1.extra_flags, 1u);
    EXPECT_EQ(div1.divisor, 1u);
    EXPECT_EQ(attribute_index(div1, 143), 1u);

    const AttributeDescriptor pot = per_instance_descriptor(64, 4, true); // 256
    EXPECT_EQ(pot.mode, AttributeMode::pot_divisor);
    EXPECT_EQ(pot.shift, 8u);

    EXPECT_TRUE(per_instance_descriptor(padded, 3, false).zero_stride);      // not instanced
    EXPECT_TRUE(per_instance_descriptor(73728, 1u << 16, true).zero_stride); // past 2^32
    EXPECT_EQ(per_vertex_descriptor(70, false).mode, AttributeMode::linear);
}

// ---- attribute buffer records ----

TEST(MaliRecords, BitLayout) {
    AttributeBuffer modulus{per_vertex_descriptor(72, true), 0x12345640, 4, 400};
    std::vector<uint32_t> slots;
    const auto records = pack_attribute_buffers(std::span(&modulus, 1), slots);
    ASSERT_EQ(records.size(), 1u);
    // type 3 | pointer; divisor byte 0x83 (shift 3, odd 4) in bits 56-63.
    EXPECT_EQ(records[0][0], 0x12345643u);
    EXPECT_EQ(records[0][1], 0x83000000u);
    EXPECT_EQ(records[0][2], 4u);
    EXPECT_EQ(records[0][3], 400u);

    AttributeBuffer npot{per_instance_descriptor(72, 1, true), 0x1000, 16, 64};
    const auto pair = pack_attribute_buffers(std::span(&npot, 1), slots);
    ASSERT_EQ(pair.size(), 2u);
    EXPECT_EQ(pair[0][0], 0x1004u);
    EXPECT_EQ(pair[0][1], 0x26000000u); // shift 6, round-down flag in bit 61
    EXPECT_EQ(pair[1][0], kContinuationType);
    EXPECT_EQ(pair[1][1], 0x638E38E3u);
    EXPECT_EQ(pair[1][3], 1u);
}

TEST(MaliRecords, PackUnpackRoundTripWithEvenPairs) {
    std::mt19937 rng(11);
    for (int iter = 0; iter < 2000; ++iter) {
        std::vector<AttributeBuffer> buffers(std::uniform_int_distribution<int>(1, 16)(rng));
        const uint32_t padded =
            padded_vertex_count(std::uniform_int_distribution<uint32_t>(1, 70000)(rng));
        for (AttributeBuffer& b : buffers) {
            const uint32_t kind = rng() % 4;
            const uint32_t divisor = 1 + rng() % 300;
            b.desc = kind == 0   ? per_vertex_descriptor(padded, true)
                     : kind == 1 ? per_vertex_descriptor(padded, false)
                                 : per_instance_descriptor(padded, divisor, kind == 2);
            b.pointer = (uint64_t(rng()) << 20 | rng()) & 0x00FFFFFFFFFFFFC0ull;
            b.stride = b.desc.zero_stride ? 0 : 1 + rng() % 64;
            b.size = rng();
        }
        std::vector<uint32_t> slots;
        const auto records = pack_attribute_buffers(buffers, slots);
        for (size_t i = 0; i < buffers.size(); ++i) {
            if (buffers[i].desc.mode == AttributeMode::npot_divisor) {
                EXPECT_EQ(slots[i] % 2, 0u);
            }
            const AttributeBuffer back = unpack_attribute_buffer(records, slots[i]);
            EXPECT_EQ(back.desc, buffers[i].desc) << "buffer " << i;
            EXPECT_EQ(back.pointer, buffers[i].pointer);
            EXPECT_EQ(back.stride, buffers[i].stride);
            EXPECT_EQ(back.size, buffers[i].size);
            if (i > 0) {
                EXPECT_GT(slots[i], slots[i - 1]);
            }
        }
    }
}

TEST(MaliRecords, AlignmentGapAndBadRecords) {
    AttributeBuffer buffers[2] = {{per_vertex_descriptor(72, true), 0, 4, 4},
                                  {per_instance_descriptor(72, 3, true), 64, 4, 4}};
    std::vector<uint32_t> slots;
    const auto records = pack_attribute_buffers(buffers, slots);
    ASSERT_EQ(records.size(), 4u); // modulus, empty slot, NPOT, continuation
    EXPECT_EQ(slots[1], 2u);
    EXPECT_EQ(records[1], (Record{0, 0, 0, 0}));
    EXPECT_THROW(unpack_attribute_buffer(records, 1), Error); // the empty slot
    EXPECT_THROW(unpack_attribute_buffer(records, 3), Error); // a continuation
    EXPECT_THROW(unpack_attribute_buffer(records, 4), Error); // past the end
    std::vector<Record> shifted(records.begin() + 1, records.end());
    EXPECT_THROW(unpack_attribute_buffer(shifted, 1), Error); // NPOT at an odd slot
    std::vector<Record> cut(records.begin(), records.begin() + 3);
    EXPECT_THROW(unpack_attribute_buffer(cut, 2), Error); // continuation missing

    AttributeBuffer misaligned{per_vertex_descriptor(72, true), 0x1001, 4, 4};
    EXPECT_THROW(pack_attribute_buffers(std::span(&misaligned, 1), slots), Error);
    AttributeBuffer wide{per_vertex_descriptor(72, true), 0, 4, 4};
    wide.desc.extra_flags = 8;
    EXPECT_THROW(pack_attribute_buffers(std::span(&wide, 1), slots), Error);
}

// Mali attribute descriptors: how the driver encodes, per attribute, the function the
// attribute unit applies to a thread's linear id L to get the element it reads, and the
// bit layout of the records (Panfrost genxml v5 "Attribute Buffer").
//
// Modes (hardware "Attribute Type"): 1D linear (element = L), 1D POT divisor (L >> shift),
// 1D modulus (L mod (2 * extra_flags + 1) * 2^shift), 1D NPOT divisor
// (((L + extra_flags) * (2^31 | magic_divisor)) >> 32 >> shift). The instanced draw has
// L = instance * padded + vertex; see padded_count.hpp.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <span>
#include <vector>

namespace drawpipe::mali {

enum class AttributeMode : uint8_t {
    linear = 1,       // "1D"
    pot_divisor = 2,  // "1D POT Divisor"
    modulus = 3,      // "1D Modulus"
    npot_divisor = 4, // "1D NPOT Divisor", followed by a continuation record
};
inline constexpr uint32_t kContinuationType = 32; // type of the NPOT continuation record

const char* attribute_mode_name(AttributeMode mode);

// One attribute's addressing, as the driver must encode it.
struct AttributeDescriptor {
    AttributeMode mode = AttributeMode::linear;
    uint32_t shift = 0;         // r: 0-31
    uint32_t extra_flags = 0;   // modulus: odd factor p (0-7); NPOT: round-down flag e (0-1)
    uint32_t magic_divisor = 0; // NPOT: multiplier without its implicit bit 31
    uint32_t divisor = 0;       // NPOT: the API divisor, kept in the continuation record
    bool zero_stride = false;   // every thread reads the element at the buffer's start

    friend bool operator==(const AttributeDescriptor&, const AttributeDescriptor&) = default;
};

// x mod (2p + 1) for the odd factors a modulus descriptor can hold (p = 0-7), with constant
// divisors so the compiler multiplies instead of dividing.
constexpr uint32_t mod_odd_factor(uint32_t x, uint32_t p) {
    switch (p) {
    case 0:
        return 0;
    case 1:
        return x % 3;
    case 2:
        return x % 5;
    case 3:
        return x % 7;
    case 4:
        return x % 9;
    case 5:
        return x % 11;
    case 6:
        return x % 13;
    default:
        return x % 15;
    }
}

// The element index the attribute unit computes for linear id L (before the stride, so a
// zero-stride attribute still reports it). NPOT keeps 64-bit intermediates: L + 1 may reach
// 2^32 and the product keeps its high word, as the hardware's wide multiplier does. The
// modulus by (2p + 1) * 2^r splits into the odd factor on L >> r and the low r bits.
constexpr uint32_t attribute_index(const AttributeDescriptor& d, uint32_t L) {
    switch (d.mode) {
    case AttributeMode::linear:
        return L;
    case AttributeMode::pot_divisor:
        return L >> d.shift;
    case AttributeMode::modulus: {
        const uint32_t low = L & ((uint32_t(1) << d.shift) - 1);
        return mod_odd_factor(L >> d.shift, d.extra_flags) << d.shift | low;
    }
    case AttributeMode::npot_divisor: {
        const uint64_t high =
            ((uint64_t(L) + d.extra_flags) * (d.magic_divisor | 0x80000000u)) >> 32;
        return uint32_t(high >> d.shift);
    }
    }
    return L;
}

// ---- magic divisors ----

struct MagicDivisor {
    uint32_t magic_divisor = 0; // stored form: bit 31 (always set in the multiplier) cleared
    uint32_t shift = 0;         // floor(log2 d)
    uint32_t extra_flags = 0;   // 1: round-down multiplier, the hardware adds 1 to L first
};

// The Mali variant of division by multiplication for a divisor d > 0 that is not a power of
// two: no pre-shift, the exponent fixed at 32 + floor(log2 d), so the multiplier lies in
// [2^31, 2^32) and no search is needed; the round-down form is used when its error
// 2^(32+shift) mod d is at most 2^shift, else the round-up form. Exact integer arithmetic
// (Mesa uses a double for the ceiling, which can be one lower for rare huge d).
MagicDivisor compute_magic_divisor(uint32_t d);

// ---- descriptors the driver picks (panfrost_emit_vertex_data) ----

// Per-vertex attribute: linear when the job is not instanced, else modulus by `padded`.
AttributeDescriptor per_vertex_descriptor(uint32_t padded, bool instanced);

// Per-instance attribute with API divisor > 0: zero stride when not instanced; else the
// hardware divisor padded * divisor, a POT shift when a power of two, otherwise NPOT with
// its magic divisor. A product of 2^32 or more (which Panfrost would wrap) exceeds every
// 32-bit linear id, so the attribute is constant over the job and gets zero stride.
AttributeDescriptor per_instance_descriptor(uint32_t padded, uint32_t divisor, bool instanced);

// Midgard's gl_VertexID record: modulus by padded when instanced; otherwise a modulus of
// 9 * 2^31, larger than any linear id.
AttributeDescriptor vertex_id_descriptor(uint32_t padded, bool instanced);

// Midgard's gl_InstanceID record, an NPOT divide by padded: magic 0 (multiplier 2^31) and
// shift k - 1 for padded = 2^k >= 2, the magic divisor otherwise; when not instanced, magic
// 2^31 - 1, shift 31, e = 1, a quotient of 0 for every L below 2^31. Padded 1 (a one-vertex
// instanced job) gets magic 2^31 - 1, shift 0, e = 1, which divides by 1 exactly; Panfrost
// encodes it as not instanced, which would make every instance id 0.
AttributeDescriptor instance_id_descriptor(uint32_t padded, bool instanced);

// ---- the 8-bit "padded" field: shift in bits 0-4, odd in bits 5-7 ----

// Encodes v = (2 * odd + 1) * 2^shift; nullopt unless v has that form with odd <= 7 and
// shift <= 31.
std::optional<uint8_t> encode_padded_field(uint64_t v);
// The value a field byte stands for (up to 15 * 2^31).
constexpr uint64_t decode_padded_field(uint8_t field) {
    return uint64_t(2 * (field >> 5) + 1) << (field & 31);
}

// ---- attribute buffer records (16 bytes each) ----
//
// Record: type in bits 0-5, pointer bits 6-55 stored in place (the pointer is 64-byte
// aligned), the divisor byte in bits 56-63 (shift in 56-60; modulus odd in 61-63 or NPOT
// round-down flag in 61), stride in bits 64-95, size in bits 96-127. An NPOT record is
// followed by a continuation record: type 32, the 32-bit numerator (magic) in bits 32-63
// and the API divisor in bits 96-127; such a pair starts at an even slot.

using Record = std::array<uint32_t, 4>;

struct AttributeBuffer {
    AttributeDescriptor desc;
    uint64_t pointer = 0; // 64-byte aligned GPU address (the driver moves the rest to offsets)
    uint32_t stride = 0;  // bytes; written as 0 for a zero-stride descriptor
    uint32_t size = 0;    // bytes
};

// Packs buffers one record each in order, NPOT ones with their continuation at an even
// slot (a skipped slot stays zero). `slots[i]` receives buffer i's record index.
// Requires every pointer 64-byte aligned and below 2^56. Throws Error on a descriptor whose
// fields do not fit.
std::vector<Record> pack_attribute_buffers(std::span<const AttributeBuffer> buffers,
                                           std::vector<uint32_t>& slots);

// Reads the buffer whose record is at `slot`, with its continuation for NPOT; a record with
// stride 0 reads back as a zero-stride descriptor. Throws Error on an unknown type, a
// missing continuation, or an NPOT record at an odd slot.
AttributeBuffer unpack_attribute_buffer(std::span<const Record> records, uint32_t slot);

} // namespace drawpipe::mali

#include "middle_ends/mali/descriptors.hpp"

#include "drawpipe/error.hpp"

#include <bit>
#include <string>

namespace drawpipe::mali {

namespace {

[[noreturn]] void fail(const std::string& msg) {
    throw Error(ErrorCode::invalid_value, msg);
}

AttributeDescriptor npot_divide(uint32_t d, uint32_t api_divisor) {
    const MagicDivisor m = compute_magic_divisor(d);
    AttributeDescriptor out;
    out.mode = AttributeMode::npot_divisor;
    out.shift = m.shift;
    out.extra_flags = m.extra_flags;
    out.magic_divisor = m.magic_divisor;
    out.divisor = api_divisor;
    return out;
}

AttributeDescriptor modulus_by(uint32_t padded) {
    AttributeDescriptor out;
    out.mode = AttributeMode::modulus;
    out.shift = uint32_t(std::countr_zero(padded));
    out.extra_flags = padded >> (out.shift + 1);
    return out;
}

} // namespace

const char* attribute_mode_name(AttributeMode mode) {
    switch (mode) {
    case AttributeMode::linear:
        return "1D";
    case AttributeMode::pot_divisor:
        return "1D POT divisor";
    case AttributeMode::modulus:
        return "1D modulus";
    case AttributeMode::npot_divisor:
        return "1D NPOT divisor";
    }
    return "?";
}

MagicDivisor compute_magic_divisor(uint32_t d) {
    // d in (2^shift, 2^(shift+1)), so 2^(32+shift) / d lies in (2^31, 2^32): one of the two
    // roundings of that quotient is exact for every 32-bit L (errors r and d - r sum to d
    // < 2^(shift+1), so one is below 2^shift).
    const uint32_t shift = uint32_t(std::bit_width(d)) - 1;
    const uint64_t numerator = uint64_t(1) << (32 + shift);
    const uint64_t down = numerator / d;
    const uint64_t rem = numerator % d;
    const bool round_down = rem <= (uint64_t(1) << shift);
    const uint64_t multiplier = round_down ? down : down + 1;
    return {uint32_t(multiplier) & 0x7FFFFFFFu, shift, round_down ? 1u : 0u};
}

AttributeDescriptor per_vertex_descriptor(uint32_t padded, bool instanced) {
    return instanced ? modulus_by(padded) : AttributeDescriptor{};
}

AttributeDescriptor per_instance_descriptor(uint32_t padded, uint32_t divisor, bool instanced) {
    AttributeDescriptor out;
    const uint64_t hw = uint64_t(padded) * divisor;
    if (!instanced || hw > UINT32_MAX) {
        out.zero_stride = true;
        return out;
    }
    if (std::has_single_bit(hw)) {
        out.mode = AttributeMode::pot_divisor;
        out.shift = uint32_t(std::countr_zero(hw));
        return out;
    }
    return npot_divide(uint32_t(hw), divisor);
}

AttributeDescriptor vertex_id_descriptor(uint32_t padded, bool instanced) {
    if (instanced) return modulus_by(padded);
    AttributeDescriptor out;
    out.mode = AttributeMode::modulus;
    out.shift = 31;
    out.extra_flags = 4;
    return out;
}

AttributeDescriptor instance_id_descriptor(uint32_t padded, bool instanced) {
    AttributeDescriptor out;
    out.mode = AttributeMode::npot_divisor;
    if (!instanced) {
        out.magic_divisor = 0x7FFFFFFFu;
        out.shift = 31;
        out.extra_flags = 1;
    } else if (padded == 1) {
        // Divide by 1: ((L + 1) * (2^32 - 1)) >> 32 = L for every 32-bit L. Panfrost forces
        // 0 here as when not instanced, which would give every instance of a one-vertex
        // instanced draw gl_InstanceID 0.
        out.magic_divisor = 0x7FFFFFFFu;
        out.extra_flags = 1;
    } else if (std::has_single_bit(padded)) {
        out.magic_divisor = 0; // multiplier exactly 2^31: L >> 1, then the shift
        out.shift = uint32_t(std::countr_zero(padded)) - 1;
    } else {
        const MagicDivisor m = compute_magic_divisor(padded);
        out.magic_divisor = m.magic_divisor;
        out.shift = m.shift;
        out.extra_flags = m.extra_flags;
    }
    return out;
}

std::optional<uint8_t> encode_padded_field(uint64_t v) {
    if (v == 0) return std::nullopt;
    const uint32_t shift = uint32_t(std::countr_zero(v));
    const uint64_t odd = v >> (shift + 1);
    if (shift > 31 || odd > 7) return std::nullopt;
    return uint8_t(shift | (odd << 5));
}

namespace {

uint8_t divisor_byte(const AttributeDescriptor& d, uint32_t index) {
    const std::string who = "attribute buffer " + std::to_string(index) + ": ";
    if (d.shift > 31) fail(who + "shift " + std::to_string(d.shift) + " does not fit 5 bits");
    switch (d.mode) {
    case AttributeMode::linear:
        return 0;
    case AttributeMode::pot_divisor:
        return uint8_t(d.shift);
    case AttributeMode::modulus:
        if (d.extra_flags > 7)
            fail(who + "modulus odd factor " + std::to_string(d.extra_flags) + " above 7");
        return uint8_t(d.shift | d.extra_flags << 5);
    case AttributeMode::npot_divisor:
        if (d.extra_flags > 1) fail(who + "NPOT extra_flags must be 0 or 1");
        if (d.magic_divisor > 0x7FFFFFFFu) fail(who + "magic_divisor must have bit 31 clear");
        return uint8_t(d.shift | d.extra_flags << 5);
    }
    fail(who + "unknown attribute mode");
}

} // namespace

std::vector<Record> pack_attribute_buffers(std::span<const AttributeBuffer> buffers,
                                           std::vector<uint32_t>& slots) {
    std::vector<Record> records;
    slots.assign(buffers.size(), 0);
    for (size_t i = 0; i < buffers.size(); ++i) {
        const AttributeBuffer& b = buffers[i];
        const AttributeDescriptor& d = b.desc;
        if (b.pointer % 64 != 0 || b.pointer >> 56 != 0)
            fail("attribute buffer " + std::to_string(i) +
                 ": pointer must be 64-byte aligned below 2^56");
        const uint8_t divisor = divisor_byte(d, uint32_t(i));
        const bool npot = d.mode == AttributeMode::npot_divisor;
        if (npot && records.size() % 2 != 0) records.push_back({}); // pairs start at an even slot
        slots[i] = uint32_t(records.size());
        const uint64_t word01 = uint64_t(d.mode) | b.pointer | uint64_t(divisor) << 56;
        records.push_back(
            {uint32_t(word01), uint32_t(word01 >> 32), d.zero_stride ? 0 : b.stride, b.size});
        if (npot) records.push_back({kContinuationType, d.magic_divisor, 0, d.divisor});
    }
    return records;
}

AttributeBuffer unpack_attribute_buffer(std::span<const Record> records, uint32_t slot) {
    const std::string who = "attribute record " + std::to_string(slot) + ": ";
    if (slot >= records.size()) fail(who + "past the end of the records");
    const Record& r = records[slot];
    const uint64_t word01 = uint64_t(r[0]) | uint64_t(r[1]) << 32;
    const uint32_t type = uint32_t(word01 & 63);
    if (type < 1 || type > 4) fail(who + "type " + std::to_string(type) + " is not a 1D buffer");
    AttributeBuffer b;
    AttributeDescriptor& d = b.desc;
    d.mode = AttributeMode(type);
    b.pointer = word01 & 0x00FFFFFFFFFFFFC0ull;
    b.stride = r[2];
    b.size = r[3];
    d.zero_stride = b.stride == 0;
    const uint32_t divisor = uint32_t(word01 >> 56);
    switch (d.mode) {
    case AttributeMode::linear:
        break;
    case AttributeMode::pot_divisor:
        d.shift = divisor & 31;
        break;
    case AttributeMode::modulus:
        d.shift = divisor & 31;
        d.extra_flags = divisor >> 5;
        break;
    case AttributeMode::npot_divisor: {
        if (slot % 2 != 0) fail(who + "NPOT record at an odd slot");
        if (slot + 1 >= records.size() || (records[slot + 1][0] & 63) != kContinuationType)
            fail(who + "NPOT record without its continuation");
        d.shift = divisor & 31;
        d.extra_flags = (divisor >> 5) & 1;
        d.magic_divisor = records[slot + 1][1];
        d.divisor = records[slot + 1][3];
        break;
    }
    }
    return b;
}

} // namespace drawpipe::mali

// Drives the gen7 URB model with a plain event script (emit to a stream, end a primitive),
// for the header goldens and the URB property test.
#pragma once

#include "middle_ends/intel_gen7/ff_reader.hpp"
#include "middle_ends/intel_gen7/gs_thread.hpp"

#include <cstdint>
#include <vector>

namespace drawpipe::test {

struct GsEvent {
    bool emit = true;
    uint32_t stream = 0;
};
inline GsEvent emit_on(uint32_t stream = 0) {
    return {true, stream};
}
inline GsEvent cut_on(uint32_t stream = 0) {
    return {false, stream};
}

// A script builder: emits(n) appends n stream-0 emits, cut() an end_primitive.
struct Script {
    std::vector<GsEvent> events;
    Script& emits(uint32_t n, uint32_t stream = 0) {
        for (uint32_t i = 0; i < n; ++i) events.push_back(emit_on(stream));
        return *this;
    }
    Script& cut(uint32_t stream = 0) {
        events.push_back(cut_on(stream));
        return *this;
    }
};

// Runs one thread of `program` over `events`; emitted vertex k (0-based over all emit
// events, kept or not) carries k in VUE dword 0 and ~k in the VUE's last dword.
inline void run_script(const gen7::GsProgram& program, const std::vector<GsEvent>& events,
                       gen7::UrbEntry& entry) {
    gen7::GsThread thread(program, entry);
    std::vector<uint32_t> vue(program.desc.vue_slots * 4, 0);
    uint32_t k = 0;
    for (const GsEvent& e : events) {
        if (e.emit) {
            vue.front() = k;
            vue.back() = ~k;
            ++k;
            thread.emit_vertex(e.stream, vue);
        } else {
            thread.end_primitive(e.stream);
        }
    }
    thread.end_thread();
}

// The header DWORDs of an entry (ceil(header bits / 32) of them), unwritten ones included
// as UrbEntry::kUnwritten.
inline std::vector<uint32_t> header_dwords(const gen7::GsProgram& program,
                                           const gen7::UrbEntry& entry) {
    std::vector<uint32_t> out;
    for (uint32_t i = 0; i < program.header_dwords(); ++i) out.push_back(entry.dword(i));
    return out;
}

inline std::vector<gen7::UrbWrite> header_writes(const gen7::UrbEntry& entry) {
    std::vector<gen7::UrbWrite> out;
    for (const auto& w : entry.writes())
        if (w.kind == gen7::UrbWriteKind::header) out.push_back(w);
    return out;
}

inline uint32_t vertex_write_count(const gen7::UrbEntry& entry) {
    uint32_t n = 0;
    for (const auto& w : entry.writes()) n += w.kind == gen7::UrbWriteKind::vertex;
    return n;
}

} // namespace drawpipe::test

#include "draw/context/shade_step.hpp"

#include "draw/stages/stage_chain.hpp"

#include <memory>
#include <vector>

namespace drawpipe {

void stage_batch(const PreparedDraw& draw, DrawBatch& batch) {
    if (!draw.raster->per_primitive && !draw.driver_stages && batch.clip.clip_or == 0)
        return; // straight to the backend
    // One chain per thread, begun per batch: beginning builds no more than a few stage objects.
    thread_local StageChain chain(nullptr);
    // The driver's stages, copied once per thread per set (a set is never seen again once
    // another replaces it here, so its copies go then).
    struct Copies {
        uint64_t id = 0;
        std::vector<std::unique_ptr<Stage>> owned;
        std::vector<Stage*> stages;
    };
    thread_local Copies copies;
    const PreparedDraw::DriverStages* set = draw.driver_stages.get();
    if (set && copies.id != set->id) {
        copies.owned.clear();
        copies.stages.clear();
        for (const Stage* s : set->stages) {
            copies.owned.push_back(s->clone());
            copies.stages.push_back(copies.owned.back().get());
        }
        copies.id = set->id;
    }
    chain.begin(draw.state.draw, *draw.raster,
                set ? std::span<Stage* const>(copies.stages) : std::span<Stage* const>());
    chain.stage(batch);
}

} // namespace drawpipe

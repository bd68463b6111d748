// Progress of a long command on stderr, only when stderr is a terminal: one line redrawn a few
// times a second with what is running, how far it is and an estimate of what is left, erased
// before anything else is printed. Piped or redirected, nothing is printed at all.
#pragma once

#include "drawpipe/extend/middle_end.hpp"
#include "tools/common/wrapped_middle_end.hpp"

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <memory>
#include <mutex>
#include <string>
#include <thread>

namespace drawpipe::cli {

class Progress {
  public:
    // Shown only when `enabled` and stderr is a terminal.
    explicit Progress(bool enabled);
    ~Progress();
    Progress(const Progress&) = delete;
    Progress& operator=(const Progress&) = delete;

    bool shown() const { return shown_; }
    // Starts a phase: `what` (a short description), with `total` units of work counted by
    // advance() (0: not counted), or else an estimate of its seconds (0: none, elapsed only).
    void phase(const std::string& what, uint64_t total = 0, double estimate_seconds = 0);
    // Replaces the current phase's estimate (a timed loop knows its length after a first run).
    void estimate(double seconds);
    // Counts finished units; thread-safe.
    void advance(uint64_t units) { done_.fetch_add(units, std::memory_order_relaxed); }
    // Erases the line: call before printing anything to stdout or stderr, then print, then
    // resume(); the line comes back at the next redraw.
    void pause();
    void resume();
    // Ends the phase, erasing the line.
    void done();

    // "4.2 s", "2 min 05 s".
    static std::string duration(double seconds);

  private:
    void run();
    void draw_locked();
    void erase_locked();

    bool shown_;
    std::mutex mutex_;
    std::condition_variable wake_;
    std::thread ticker_;
    bool stop_ = false, paused_ = false, active_ = false, drawn_ = false;
    std::string what_;
    uint64_t total_ = 0;
    double estimate_ = 0;
    std::atomic<uint64_t> done_{0};
    std::chrono::steady_clock::time_point start_;
};

// A middle end around another that counts each segment's draw elements (times its instances)
// into a Progress once shaded: a draw's progress is its count times its instances. Everything
// else is the wrapped middle end's; only a command showing progress wraps it.
class ProgressMiddleEnd final : public WrappedMiddleEnd {
  public:
    ProgressMiddleEnd(std::shared_ptr<const MiddleEnd> inner, Progress& progress)
        : WrappedMiddleEnd(std::move(inner)), progress_(progress) {}

  private:
    std::shared_ptr<const MiddleEndDraw>
    wrap_draw(std::shared_ptr<const MiddleEndDraw> draw) const override {
        return std::make_shared<Draw>(std::move(draw), progress_);
    }

    class Draw final : public MiddleEndDraw {
      public:
        Draw(std::shared_ptr<const MiddleEndDraw> inner, Progress& progress)
            : MiddleEndDraw(inner->limits(), inner->layout()), inner_(std::move(inner)),
              progress_(progress) {}
        void shade(const Segment& seg, MiddleEndScratch* scratch, ShadedBatch& out) const override {
            inner_->shade(seg, scratch, out);
            progress_.advance(uint64_t(seg.draw_count) * seg.instance_count);
        }

      private:
        std::shared_ptr<const MiddleEndDraw> inner_;
        Progress& progress_;
    };

    Progress& progress_;
};

} // namespace drawpipe::cli

#include "tools/progress.hpp"

#include <unistd.h>

#include <algorithm>
#include <cstdio>

namespace drawpipe::cli {

Progress::Progress(bool enabled) : shown_(enabled && ::isatty(2) == 1) {
    if (shown_) ticker_ = std::thread([this] { run(); });
}

Progress::~Progress() {
    if (!shown_) return;
    {
        const std::lock_guard lock(mutex_);
        stop_ = true;
        erase_locked();
    }
    wake_.notify_all();
    ticker_.join();
}

std::string Progress::duration(double seconds) {
    char buf[32];
    if (seconds < 60)
        std::snprintf(buf, sizeof buf, "%.1f s", seconds);
    else
        std::snprintf(buf, sizeof buf, "%d min %02d s", int(seconds) / 60, int(seconds) % 60);
    return buf;
}

void Progress::phase(const std::string& what, uint64_t total, double estimate_seconds) {
    if (!shown_) return;
    const std::lock_guard lock(mutex_);
    what_ = what;
    total_ = total;
    estimate_ = estimate_seconds;
    done_ = 0;
    start_ = std::chrono::steady_clock::now();
    active_ = true;
    draw_locked();
}

void Progress::estimate(double seconds) {
    if (!shown_) return;
    const std::lock_guard lock(mutex_);
    estimate_ = seconds;
}

void Progress::pause() {
    if (!shown_) return;
    const std::lock_guard lock(mutex_);
    paused_ = true;
    erase_locked();
}

void Progress::resume() {
    if (!shown_) return;
    const std::lock_guard lock(mutex_);
    paused_ = false;
    draw_locked();
}

void Progress::done() {
    if (!shown_) return;
    const std::lock_guard lock(mutex_);
    active_ = false;
    erase_locked();
}

void Progress::run() {
    std::unique_lock lock(mutex_);
    while (!stop_) {
        wake_.wait_for(lock, std::chrono::milliseconds(250));
        if (!stop_) draw_locked();
    }
}

void Progress::erase_locked() {
    if (!drawn_) return;
    std::fprintf(stderr, "\r\033[K");
    std::fflush(stderr);
    drawn_ = false;
}

void Progress::draw_locked() {
    if (!active_ || paused_ || stop_) return;
    const double elapsed =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
    std::string bar, tail = duration(elapsed);
    if (total_ > 0) {
        const uint64_t done = std::min<uint64_t>(done_.load(std::memory_order_relaxed), total_);
        const double f = double(done) / double(total_);
        const int width = 20, filled = int(f * width);
        bar = " [" + std::string(size_t(filled), '#') + std::string(size_t(width - filled), '.') +
              "] " + std::to_string(int(f * 100)) + "%";
        // The rate so far, once there is enough of it to go by.
        if (done > 0 && elapsed > 0.5)
            tail += ", about " + duration(elapsed / f - elapsed) + " left";
    } else if (estimate_ > 0) {
        tail += elapsed <= estimate_ ? " of about " + duration(estimate_)
                                     : " (longer than the " + duration(estimate_) + " estimated)";
    }
    // One terminal line at most (wrapping would leave copies behind on every redraw): the
    // description is shortened, never the figures.
    const std::string figures = bar + ": " + tail;
    std::string what = what_;
    if (what.size() + figures.size() > 79)
        what.resize(figures.size() < 75 ? 79 - figures.size() : 4);
    std::fprintf(stderr, "\r%s%s\033[K", what.c_str(), figures.c_str());
    std::fflush(stderr);
    drawn_ = true;
}

} // namespace drawpipe::cli

// Summaries of interleaved benchmark rounds: a round runs every configuration once, back to
// back, so the ratio of two configurations within a round cancels what the machine was
// doing at the time; the median of those ratios is the figure the benchmarks report.
#pragma once

#include <algorithm>
#include <cstddef>
#include <vector>

namespace drawpipe::bench {

inline double best_of(const std::vector<double>& v) {
    return *std::min_element(v.begin(), v.end());
}

// The middle value; the mean of the two middle values for an even count.
inline double median_of(std::vector<double> v) {
    std::sort(v.begin(), v.end());
    const size_t h = v.size() / 2;
    return v.size() % 2 ? v[h] : (v[h - 1] + v[h]) / 2;
}

// Median over rounds of num[i] / den[i] (the same number of rounds each).
inline double median_ratio(const std::vector<double>& num, const std::vector<double>& den) {
    std::vector<double> r;
    r.reserve(num.size());
    for (size_t i = 0; i < num.size() && i < den.size(); ++i) r.push_back(num[i] / den[i]);
    return median_of(r);
}

// Median over rounds of one speed-up over another: (a[i] / b[i]) / (c[i] / d[i]). With a/b
// a program's 2-thread speed-up and c/d that of work that divides perfectly, run in the same
// round, it is the share of what the machine gave 2 threads then that the program took.
inline double median_relative_speedup(const std::vector<double>& a, const std::vector<double>& b,
                                      const std::vector<double>& c, const std::vector<double>& d) {
    std::vector<double> r;
    for (size_t i = 0; i < a.size() && i < b.size() && i < c.size() && i < d.size(); ++i)
        r.push_back((a[i] / b[i]) / (c[i] / d[i]));
    return median_of(r);
}

} // namespace drawpipe::bench

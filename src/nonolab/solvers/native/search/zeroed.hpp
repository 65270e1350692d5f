// An array of zeros whose memory is taken only where it is written.
//
// Probing keeps a score and a mark per cell, but writes them only for the cells it
// probes or touches: the open cells, often a small part of a large grid (a smooth
// 10,000 x 10,000 puzzle leaves a few hundred open after line propagation).  A
// std::vector would write every element (12 bytes a cell, 1.2 GB at 100 M cells);
// calloc of a large block maps zero pages that the system backs with memory only on a
// page's first write, so the untouched cells cost nothing.
#pragma once

#include <cstdlib>
#include <memory>
#include <new>

namespace native {

template <typename T>
class ZeroedArray {
public:
    ZeroedArray() = default;
    // Every element zero; the old content is dropped.
    void assign_zeros(size_t n) {
        data_.reset();
        size_ = 0;
        if (n == 0) return;
        void* block = std::calloc(n, sizeof(T));
        if (block == nullptr) throw std::bad_alloc();
        data_.reset(static_cast<T*>(block));
        size_ = n;
    }
    size_t size() const { return size_; }
    T& operator[](size_t i) { return data_.get()[i]; }
    const T& operator[](size_t i) const { return data_.get()[i]; }

private:
    struct Free {
        void operator()(T* p) const { std::free(p); }
    };
    std::unique_ptr<T, Free> data_;
    size_t size_ = 0;
};

}  // namespace native

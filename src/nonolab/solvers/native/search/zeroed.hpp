// An array of zeros whose memory is taken only where it is written.
//
// Probing keeps a score and a mark per cell, but writes them only for the cells it
// probes or touches: the open cells, often a small part of a large grid (a smooth
// 10,000 x 10,000 puzzle leaves a few hundred open after line propagation).  A
// std::vector would write every element (12 bytes a cell, 1.2 GB at 100 M cells).
// Up to FLAT elements the array is one calloc'ed block: the system backs a zero page
// with memory only on its first write, and an access is one load.  Beyond, calloc would
// still take address space for every element (4.8 GB at 400 M cells, which a cap on the
// address space, prlimit --as or ulimit -v, refuses), so the array is pages of PAGE
// elements made on their first write; get() reads without making one.
#pragma once

#include <algorithm>
#include <cstdlib>
#include <memory>
#include <new>
#include <vector>

namespace native {

template <typename T>
class ZeroedArray {
public:
    static constexpr size_t FLAT = size_t(1) << 24;
    static constexpr size_t PAGE_BITS = 16;

    ZeroedArray() = default;
    // Every element zero; the old content is dropped.
    void assign_zeros(size_t n) {
        flat_.reset();
        pages_.clear();
        size_ = n;
        if (n == 0) return;
        if (n <= FLAT) {
            void* block = std::calloc(n, sizeof(T));
            if (block == nullptr) throw std::bad_alloc();
            flat_.reset(static_cast<T*>(block));
        } else {
            pages_.resize(((n - 1) >> PAGE_BITS) + 1);
        }
    }
    size_t size() const { return size_; }
    // For writing (a page is made here if need be).
    T& operator[](size_t i) {
        if (flat_) return flat_.get()[i];
        std::unique_ptr<T[]>& page = pages_[i >> PAGE_BITS];
        if (!page) page.reset(new T[size_t(1) << PAGE_BITS]());
        return page[i & ((size_t(1) << PAGE_BITS) - 1)];
    }
    // For reading: an element never written is zero, and reading it takes no memory.
    T get(size_t i) const {
        if (flat_) return flat_.get()[i];
        const std::unique_ptr<T[]>& page = pages_[i >> PAGE_BITS];
        return page ? page[i & ((size_t(1) << PAGE_BITS) - 1)] : T();
    }
    T operator[](size_t i) const { return get(i); }
    // Elements [lo, hi) zero, making no page: a page never written is zero already, and
    // the flat block is only written where it is not zero (a write would back it).
    void clear(size_t lo, size_t hi) {
        if (flat_) {
            T* a = flat_.get();
            for (size_t i = lo; i < hi; ++i)
                if (a[i] != T()) a[i] = T();
            return;
        }
        const size_t size = size_t(1) << PAGE_BITS;
        while (lo < hi) {
            const size_t end = std::min(hi, ((lo >> PAGE_BITS) + 1) << PAGE_BITS);
            if (const std::unique_ptr<T[]>& page = pages_[lo >> PAGE_BITS])
                std::fill(page.get() + (lo & (size - 1)), page.get() + (lo & (size - 1)) + (end - lo), T());
            lo = end;
        }
    }

private:
    struct Free {
        void operator()(T* p) const { std::free(p); }
    };
    std::unique_ptr<T, Free> flat_;
    std::vector<std::unique_ptr<T[]>> pages_;
    size_t size_ = 0;
};

}  // namespace native

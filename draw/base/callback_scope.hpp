// Which backend callback the calling thread is in, so that a call back into the context from
// it can name the callback (Context's re-entrancy check, draw/context/context.cpp).
#pragma once

namespace drawpipe::detail {

// The backend call this thread is making for the draw module, or null outside one.
constinit inline thread_local const char* t_backend_callback = nullptr;

// Names the backend call running on this thread while it lasts (nested calls restore).
class CallbackScope {
  public:
    explicit CallbackScope(const char* name) : outer_(t_backend_callback) {
        t_backend_callback = name;
    }
    ~CallbackScope() { t_backend_callback = outer_; }
    CallbackScope(const CallbackScope&) = delete;
    CallbackScope& operator=(const CallbackScope&) = delete;

  private:
    const char* outer_;
};

} // namespace drawpipe::detail

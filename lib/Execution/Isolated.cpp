//===- Isolated.cpp - run a function in a child process, bounded ----------===//
#include "tinygrad/Execution/Isolated.h"

#include <cerrno>
#include <cmath>
#include <chrono>
#include <csignal>
#include <cstring>
#include <poll.h>
#include <pthread.h>
#include <sys/wait.h>
#include <unistd.h>

using namespace mlir::tinygrad;

static llvm::Error err(const llvm::Twine &m) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(), m);
}

static void writeAll(int fd, const char *p, size_t n) {
  while (n) {
    ssize_t w = ::write(fd, p, n);
    if (w < 0 && errno == EINTR)
      continue;
    if (w <= 0)
      return;
    p += w;
    n -= (size_t)w;
  }
}

//===----------------------------------------------------------------------===//
// IsolatedWorker
//===----------------------------------------------------------------------===//

namespace {
/// Reads exactly n bytes; false on EOF or an error.
bool readAll(int fd, char *p, size_t n) {
  while (n) {
    ssize_t r = ::read(fd, p, n);
    if (r < 0 && errno == EINTR)
      continue;
    if (r <= 0)
      return false;
    p += r;
    n -= (size_t)r;
  }
  return true;
}

/// A frame: 8 bytes of length, then the bytes.
void writeFrame(int fd, const std::string &s) {
  uint64_t n = s.size();
  writeAll(fd, reinterpret_cast<const char *>(&n), sizeof n);
  writeAll(fd, s.data(), s.size());
}

bool readFrame(int fd, std::string &out) {
  uint64_t n = 0;
  if (!readAll(fd, reinterpret_cast<char *>(&n), sizeof n))
    return false;
  out.resize(n);
  return readAll(fd, out.data(), n);
}
} // namespace

/// The child's end of its reply pipe (-1 outside a worker's child).
static int childReplyFd = -1;

void exec::IsolatedWorker::notice() {
  if (childReplyFd >= 0)
    writeFrame(childReplyFd, "~");
}

exec::IsolatedWorker::~IsolatedWorker() {
  if (pid > 0)
    stop(/*kill=*/true);
}

llvm::Error exec::IsolatedWorker::start() {
  int down[2], up[2];
  if (::pipe(down) != 0)
    return err(llvm::Twine("pipe: ") + std::strerror(errno));
  if (::pipe(up) != 0) {
    ::close(down[0]);
    ::close(down[1]);
    return err(llvm::Twine("pipe: ") + std::strerror(errno));
  }
  pid_t p = ::fork();
  if (p < 0) {
    for (int fd : {down[0], down[1], up[0], up[1]})
      ::close(fd);
    return err(llvm::Twine("fork: ") + std::strerror(errno));
  }
  if (p == 0) {
    ::close(down[1]);
    ::close(up[0]);
    childReplyFd = up[1];
    std::string req;
    while (readFrame(down[0], req)) {
      llvm::Expected<std::string> r = handler(req);
      writeFrame(up[1], r ? "+" + *r : "-" + llvm::toString(r.takeError()));
    }
    ::_exit(0);
  }
  ::close(down[0]);
  ::close(up[1]);
  pid = p;
  toChild = down[1];
  fromChild = up[0];
  ++started;
  return llvm::Error::success();
}

std::string exec::IsolatedWorker::stop(bool kill) {
  ::close(toChild);
  ::close(fromChild);
  toChild = fromChild = -1;
  if (kill)
    ::kill(pid, SIGKILL);
  int status = 0;
  while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  pid = -1;
  if (WIFSIGNALED(status) && WTERMSIG(status) != SIGKILL)
    return "killed by signal " + std::to_string(WTERMSIG(status)) + " (" + ::strsignal(WTERMSIG(status)) + ")";
  return "the child exited with status " + std::to_string(WEXITSTATUS(status)) + " without a result";
}

llvm::Expected<std::string> exec::IsolatedWorker::call(const std::string &request, double timeoutS,
                                                        llvm::ArrayRef<double> afterNoticesS) {
  if (pid <= 0)
    if (llvm::Error e = start())
      return std::move(e);
  // The child may have died since (killed from outside, e.g. by the OOM
  // killer): a write to its pipe then fails, not raises SIGPIPE
  // (MSG_NOSIGNAL does not apply to pipes, so block it). A blocked signal
  // stays pending, and unblocking would deliver it (the default action
  // ends the process): the SIGPIPE this write raised is taken first.
  sigset_t block, old, pending;
  sigemptyset(&block);
  sigaddset(&block, SIGPIPE);
  pthread_sigmask(SIG_BLOCK, &block, &old);
  sigpending(&pending);
  bool hadPipe = sigismember(&pending, SIGPIPE) == 1; // not ours: left as it was
  writeFrame(toChild, request);
  sigpending(&pending);
  if (!hadPipe && sigismember(&pending, SIGPIPE) == 1) {
    struct timespec none{0, 0};
    while (sigtimedwait(&block, nullptr, &none) < 0 && errno == EINTR) {
    }
  }
  pthread_sigmask(SIG_SETMASK, &old, nullptr);

  auto t0 = std::chrono::steady_clock::now();
  const auto limit = t0 + std::chrono::duration<double>(timeoutS);
  auto deadline = limit;
  size_t notices = 0;
  std::string reply;
  while (true) {
    auto now = std::chrono::steady_clock::now();
    double left = std::chrono::duration<double>(deadline - now).count();
    if (left <= 0) {
      stop(/*kill=*/true);
      return err("timed out after " + std::to_string(std::chrono::duration<double>(now - t0).count()) +
                 " s (killed)");
    }
    struct pollfd p{fromChild, POLLIN, 0};
    int n = ::poll(&p, 1, (int)std::min(left * 1000 + 1, 1e9));
    if (n < 0 && errno == EINTR)
      continue;
    if (n <= 0)
      continue;
    if (!readFrame(fromChild, reply) || reply.empty())
      return err(stop(/*kill=*/false));
    if (reply != "~")
      break;
    // the handler's k-th notice: from here at most afterNoticesS[k]
    if (size_t k = notices++; k < afterNoticesS.size() && std::isfinite(afterNoticesS[k])) {
      auto bound = std::chrono::steady_clock::now() + std::chrono::duration<double>(afterNoticesS[k]);
      deadline = std::min(limit, bound);
    }
  }
  if (reply[0] == '-')
    return err(reply.substr(1));
  return reply.substr(1);
}

llvm::Expected<std::string> exec::runIsolated(const std::function<llvm::Expected<std::string>()> &fn,
                                               double timeoutS) {
  IsolatedWorker once([&](const std::string &) { return fn(); });
  return once.call("", timeoutS);
}

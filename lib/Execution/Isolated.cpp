//===- Isolated.cpp - run a function in a child process, bounded ----------===//
#include "tinygrad/Execution/Isolated.h"

#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstring>
#include <poll.h>
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

llvm::Expected<std::string> exec::runIsolated(const std::function<llvm::Expected<std::string>()> &fn,
                                               double timeoutS) {
  int fds[2];
  if (::pipe(fds) != 0)
    return err(llvm::Twine("pipe: ") + std::strerror(errno));
  pid_t pid = ::fork();
  if (pid < 0) {
    ::close(fds[0]);
    ::close(fds[1]);
    return err(llvm::Twine("fork: ") + std::strerror(errno));
  }
  if (pid == 0) {
    ::close(fds[0]);
    // One byte of status ('+' ok, '-' error), then the text.
    llvm::Expected<std::string> r = fn();
    std::string msg = r ? "+" + *r : "-" + llvm::toString(r.takeError());
    writeAll(fds[1], msg.data(), msg.size());
    ::close(fds[1]);
    ::_exit(0);
  }
  ::close(fds[1]);
  std::string out;
  auto deadline = std::chrono::steady_clock::now() + std::chrono::duration<double>(timeoutS);
  bool timedOut = false;
  char buf[4096];
  while (true) {
    double left = std::chrono::duration<double>(deadline - std::chrono::steady_clock::now()).count();
    if (left <= 0) {
      timedOut = true;
      break;
    }
    struct pollfd p{fds[0], POLLIN, 0};
    int n = ::poll(&p, 1, (int)std::min(left * 1000 + 1, 1e9));
    if (n < 0 && errno == EINTR)
      continue;
    if (n == 0)
      continue; // the deadline check above ends it
    ssize_t r = ::read(fds[0], buf, sizeof buf);
    if (r < 0 && errno == EINTR)
      continue;
    if (r <= 0)
      break; // EOF: the child is done (or died)
    out.append(buf, (size_t)r);
  }
  ::close(fds[0]);
  if (timedOut)
    ::kill(pid, SIGKILL);
  int status = 0;
  while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  if (timedOut)
    return err("timed out after " + std::to_string(timeoutS) + " s (killed)");
  if (WIFSIGNALED(status))
    return err(llvm::Twine("killed by signal ") + llvm::Twine(WTERMSIG(status)) + " (" +
               ::strsignal(WTERMSIG(status)) + ")");
  if (!WIFEXITED(status) || WEXITSTATUS(status) != 0 || out.empty())
    return err("the child exited with status " + llvm::Twine(WEXITSTATUS(status)) + " without a result");
  if (out[0] == '-')
    return err(out.substr(1));
  return out.substr(1);
}

// The relay's byte pump (docs/decisions/109-relay-bodies-pumped-off-the-event-loop.md): moves exactly
// `length` bytes from one connected socket to another on a thread of its own, with read(2)/write(2)
// through one 1 MiB buffer, as the cheapest C forwarder does. The relay hands it a raw body once
// Node has written the answer's headers; its event loop neither wakes for the body's reads nor
// runs JavaScript per chunk. Built by scripts/build-native.mjs against Node-API (any Node >= 18).
//
// The pump works on its own duplicates of the two descriptors, so a socket that Node closes
// meanwhile (the browser left) can never hand its number to another connection under the pump:
// cancel() wakes the thread, which closes its duplicates and reports. Both sockets stay
// non-blocking as libuv set them (the flag belongs to the shared file description); the thread
// waits with poll(2), on the socket it needs and on an eventfd that cancel() writes.
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <node_api.h>
#include <poll.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/eventfd.h>
#include <sys/socket.h>
#include <unistd.h>

#define CHUNK (1 << 20)

typedef struct {
  int from, to, wake;
  int64_t left;
  int64_t moved;
  // 0: all moved; else an errno, or -1 for "the sending side ended early", -2 for "cancelled"
  int error;
  napi_threadsafe_function done;
  // on the JS thread only: reported (the wake descriptor is closed), and no longer held by JS
  int finished, orphaned;
} pump_t;

static const char *describe(int error) {
  if (error == -1) return "the sending side ended before the body did";
  if (error == -2) return "cancelled";
  return strerror(error);
}

/** Waits until `fd` is ready for `events` or the pump is cancelled: 0, -2 (cancelled) or an errno. */
static int wait_for(pump_t *p, int fd, short events) {
  struct pollfd fds[2] = {{.fd = fd, .events = events}, {.fd = p->wake, .events = POLLIN}};
  for (;;) {
    int n = poll(fds, 2, -1);
    if (n < 0) {
      if (errno == EINTR) continue;
      return errno;
    }
    if (fds[1].revents) return -2;
    // POLLERR/POLLHUP: the next read or write says what went wrong
    if (fds[0].revents) return 0;
  }
}

static void *run(void *arg) {
  pump_t *p = arg;
  char *buffer = malloc(CHUNK);
  if (!buffer) p->error = ENOMEM;
  while (!p->error && p->left > 0) {
    size_t want = p->left < CHUNK ? (size_t)p->left : CHUNK;
    ssize_t n = recv(p->from, buffer, want, 0);
    if (n == 0) {
      p->error = -1;
      break;
    }
    if (n < 0) {
      if (errno == EINTR) continue;
      if (errno == EAGAIN || errno == EWOULDBLOCK) {
        p->error = wait_for(p, p->from, POLLIN);
        continue;
      }
      p->error = errno;
      break;
    }
    for (ssize_t at = 0; at < n && !p->error;) {
      ssize_t w = send(p->to, buffer + at, (size_t)(n - at), MSG_NOSIGNAL);
      if (w < 0) {
        if (errno == EINTR) continue;
        if (errno == EAGAIN || errno == EWOULDBLOCK) p->error = wait_for(p, p->to, POLLOUT);
        else p->error = errno;
        continue;
      }
      at += w;
      p->moved += w;
    }
    p->left -= n;
  }
  free(buffer);
  close(p->from);
  close(p->to);
  napi_call_threadsafe_function(p->done, p, napi_tsfn_blocking);
  napi_release_threadsafe_function(p->done, napi_tsfn_release);
  return NULL;
}

/** On the JS thread once the pump stopped: callback(error message or null, bytes moved). */
static void report(napi_env env, napi_value callback, void *context, void *data) {
  (void)context;
  pump_t *p = data;
  if (env && callback) {
    napi_value args[2], global;
    if (p->error) napi_create_string_utf8(env, describe(p->error), NAPI_AUTO_LENGTH, &args[0]);
    else napi_get_null(env, &args[0]);
    napi_create_double(env, (double)p->moved, &args[1]);
    napi_get_global(env, &global);
    napi_call_function(env, global, callback, 2, args, NULL);
  }
  close(p->wake);
  p->finished = 1;
  if (p->orphaned) free(p);
}

/** JS let go of the pump's handle: freed now if it has reported, else when it does. */
static void forget(napi_env env, void *data, void *hint) {
  (void)env;
  (void)hint;
  pump_t *p = data;
  p->orphaned = 1;
  if (p->finished) free(p);
}

static napi_value fail(napi_env env, const char *message) {
  napi_throw_error(env, NULL, message);
  return NULL;
}

/** cancel(handle): wakes a running pump, which stops and reports "cancelled"; nothing once it has reported. */
static napi_value cancel(napi_env env, napi_callback_info info) {
  size_t argc = 1;
  napi_value argv[1];
  void *data = NULL;
  napi_get_cb_info(env, info, &argc, argv, NULL, NULL);
  if (argc < 1 || napi_get_value_external(env, argv[0], &data) != napi_ok || !data) return fail(env, "cancel(handle) needs what pump() returned");
  pump_t *p = data;
  uint64_t one = 1;
  if (!p->finished && write(p->wake, &one, sizeof one) < 0) {}
  return NULL;
}

/** pump(fromFd, toFd, length, callback) -> the handle cancel() takes. */
static napi_value start(napi_env env, napi_callback_info info) {
  size_t argc = 4;
  napi_value argv[4];
  napi_get_cb_info(env, info, &argc, argv, NULL, NULL);
  int32_t from, to;
  double length;
  napi_valuetype type;
  if (argc < 4 || napi_get_value_int32(env, argv[0], &from) != napi_ok || napi_get_value_int32(env, argv[1], &to) != napi_ok ||
      napi_get_value_double(env, argv[2], &length) != napi_ok || napi_typeof(env, argv[3], &type) != napi_ok || type != napi_function)
    return fail(env, "pump(fromFd, toFd, length, callback)");
  if (from < 0 || to < 0 || !(length >= 1 && length <= 9007199254740991.0)) return fail(env, "pump: bad descriptor or length");
  pump_t *p = calloc(1, sizeof *p);
  if (!p) return fail(env, "pump: out of memory");
  p->left = (int64_t)length;
  p->from = fcntl(from, F_DUPFD_CLOEXEC, 0);
  p->to = fcntl(to, F_DUPFD_CLOEXEC, 0);
  p->wake = eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
  napi_value name;
  napi_create_string_utf8(env, "relay-pump", NAPI_AUTO_LENGTH, &name);
  // what failed, for the error thrown: an errno, or 0 when Node-API did
  int error = (p->from < 0 || p->to < 0 || p->wake < 0) ? errno : 0;
  int ok = !error && napi_create_threadsafe_function(env, argv[3], NULL, name, 0, 1, NULL, NULL, NULL, report, &p->done) == napi_ok;
  if (ok) {
    pthread_t thread;
    pthread_attr_t attr;
    pthread_attr_init(&attr);
    pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED);
    pthread_attr_setstacksize(&attr, 64 * 1024);
    error = pthread_create(&thread, &attr, run, p); // (returns its error; errno is not set)
    pthread_attr_destroy(&attr);
    if (error) {
      napi_release_threadsafe_function(p->done, napi_tsfn_abort);
      ok = 0;
    }
  }
  if (!ok) {
    if (p->from >= 0) close(p->from);
    if (p->to >= 0) close(p->to);
    if (p->wake >= 0) close(p->wake);
    free(p);
    char message[160];
    snprintf(message, sizeof message, "pump: could not start (%s)", error ? strerror(error) : "Node-API refused the callback");
    return fail(env, message);
  }
  napi_value result;
  if (napi_create_external(env, p, forget, NULL, &result) != napi_ok) p->orphaned = 1;
  return result;
}

NAPI_MODULE_INIT() {
  napi_value fn;
  napi_create_function(env, "pump", NAPI_AUTO_LENGTH, start, NULL, &fn);
  napi_set_named_property(env, exports, "pump", fn);
  napi_create_function(env, "cancel", NAPI_AUTO_LENGTH, cancel, NULL, &fn);
  napi_set_named_property(env, exports, "cancel", fn);
  return exports;
}

// The cheapest possible forwarding hop, for bench:relay's ceiling: a TCP forwarder in C that
// does nothing but move bytes (no HTTP parsing, no session check, no framing), a thread per
// direction. `forwarder <upstream-port> [copy|splice]` listens on an ephemeral loopback port,
// prints it on stdout, and forwards every connection to 127.0.0.1:<upstream-port>.
//   copy:   read(2)/write(2) through a 1 MiB buffer (two copies per hop, as any user-space proxy)
//   splice: splice(2) through a pipe (zero-copy in principle; on loopback it measured slower)
// Built by bench/relay/forwarding-ceiling.ts with the machine's cc; bench-only, never shipped.
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#define CHUNK (1 << 20)

static int upstream_port;
static int use_splice;

struct connection {
  int client, upstream;
  atomic_int directions_left;
};

struct direction {
  struct connection *connection;
  int from, to;
};

static void release(struct connection *c) {
  if (atomic_fetch_sub(&c->directions_left, 1) == 1) {
    close(c->client);
    close(c->upstream);
    free(c);
  }
}

static int write_all(int fd, const char *buf, ssize_t n) {
  while (n > 0) {
    ssize_t w = write(fd, buf, (size_t)n);
    if (w <= 0) return -1;
    buf += w;
    n -= w;
  }
  return 0;
}

static void *pump(void *arg) {
  struct direction *d = arg;
  if (use_splice) {
    int p[2];
    if (pipe(p) == 0) {
      fcntl(p[0], F_SETPIPE_SZ, CHUNK);
      for (;;) {
        ssize_t n = splice(d->from, NULL, p[1], NULL, CHUNK, SPLICE_F_MOVE);
        if (n <= 0) break;
        while (n > 0) {
          ssize_t w = splice(p[0], NULL, d->to, NULL, (size_t)n, SPLICE_F_MOVE);
          if (w <= 0) goto done_splice;
          n -= w;
        }
      }
    done_splice:
      close(p[0]);
      close(p[1]);
    }
  } else {
    char *buf = malloc(CHUNK);
    for (;;) {
      ssize_t n = read(d->from, buf, CHUNK);
      if (n <= 0 || write_all(d->to, buf, n) < 0) break;
    }
    free(buf);
  }
  shutdown(d->to, SHUT_WR);
  struct connection *c = d->connection;
  free(d);
  release(c);
  return NULL;
}

static void start(struct connection *c, int from, int to) {
  struct direction *d = malloc(sizeof *d);
  d->connection = c;
  d->from = from;
  d->to = to;
  pthread_t thread;
  pthread_create(&thread, NULL, pump, d);
  pthread_detach(thread);
}

int main(int argc, char **argv) {
  if (argc < 2) {
    fprintf(stderr, "usage: forwarder <upstream-port> [copy|splice]\n");
    return 2;
  }
  signal(SIGPIPE, SIG_IGN);
  upstream_port = atoi(argv[1]);
  use_splice = argc > 2 && strcmp(argv[2], "splice") == 0;
  int one = 1;
  int listener = socket(AF_INET, SOCK_STREAM, 0);
  setsockopt(listener, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
  struct sockaddr_in address = { .sin_family = AF_INET, .sin_port = 0, .sin_addr.s_addr = htonl(INADDR_LOOPBACK) };
  socklen_t length = sizeof address;
  if (bind(listener, (struct sockaddr *)&address, sizeof address) < 0 || listen(listener, 128) < 0 ||
      getsockname(listener, (struct sockaddr *)&address, &length) < 0) {
    perror("forwarder");
    return 1;
  }
  printf("{\"port\":%d}\n", ntohs(address.sin_port));
  fflush(stdout);
  for (;;) {
    int client = accept(listener, NULL, NULL);
    if (client < 0) continue;
    int upstream = socket(AF_INET, SOCK_STREAM, 0);
    struct sockaddr_in target = { .sin_family = AF_INET, .sin_port = htons(upstream_port), .sin_addr.s_addr = htonl(INADDR_LOOPBACK) };
    if (connect(upstream, (struct sockaddr *)&target, sizeof target) < 0) {
      close(client);
      close(upstream);
      continue;
    }
    setsockopt(client, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
    setsockopt(upstream, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
    struct connection *c = malloc(sizeof *c);
    c->client = client;
    c->upstream = upstream;
    atomic_init(&c->directions_left, 2);
    start(c, client, upstream);
    start(c, upstream, client);
  }
}

// Samples the thread states of a command while it runs: where every thread of a process is blocked, without perf or strace.
//
// Build: cc -O2 -static bench/thread-states.c -o thread-states (static: the lent machine has no compiler). Run:
// ./thread-states OUT.txt node bin/exrview.mjs thumbs DIR --out OUT. Every 0.25 ms it writes one line to OUT.txt: the
// milliseconds since the command started, then tid:state:wchan:ticks for each of its threads (state R, S, D...; wchan
// the kernel function a sleeping thread waits in; ticks its user and system CPU time so far, in clock ticks). `node bench/thread-states-summary.mjs OUT.txt` sums them. This is how
// the stall of every decode worker in expand_files was found (host/decode/worker-process.ts).
#define _GNU_SOURCE
#include <dirent.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static double now_ms(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return t.tv_sec * 1e3 + t.tv_nsec / 1e6;
}

/** The file's text into buf (NUL-terminated); its length, or -1. */
static int read_text(const char *path, char *buf, int size) {
  const int fd = open(path, O_RDONLY);
  if (fd < 0) return -1;
  int n = (int)read(fd, buf, size - 1);
  close(fd);
  if (n < 0) n = 0;
  buf[n] = 0;
  return n;
}

int main(int argc, char **argv) {
  if (argc < 3) {
    fprintf(stderr, "usage: thread-states OUT.txt COMMAND [ARGS...]\n");
    return 2;
  }
  FILE *out = fopen(argv[1], "w");
  if (!out) {
    perror(argv[1]);
    return 2;
  }
  const pid_t pid = fork();
  if (pid == 0) {
    execvp(argv[2], argv + 2);
    perror(argv[2]);
    _exit(127);
  }
  const double t0 = now_ms();
  char path[320], stat[4096], wchan[128];
  int status = 0;
  for (;;) {
    if (waitpid(pid, &status, WNOHANG) == pid) break;
    snprintf(path, sizeof path, "/proc/%d/task", (int)pid);
    DIR *tasks = opendir(path);
    if (!tasks) break;
    fprintf(out, "%.2f", now_ms() - t0);
    for (struct dirent *task; (task = readdir(tasks));) {
      if (task->d_name[0] == '.') continue;
      snprintf(path, sizeof path, "/proc/%d/task/%s/stat", (int)pid, task->d_name);
      if (read_text(path, stat, sizeof stat) <= 0) continue;
      // the state follows the command name, which is in parentheses and may hold spaces
      const char *close_paren = strrchr(stat, ')');
      if (!close_paren || !close_paren[1] || !close_paren[2]) continue;
      const char state = close_paren[2];
      // utime and stime, fields 14 and 15 of stat: the 11th and 12th after the state
      unsigned long long userTicks = 0, systemTicks = 0;
      const char *field = close_paren + 2;
      for (int k = 0; k < 11 && field; k++) field = strchr(field + 1, ' ');
      if (field) sscanf(field, " %llu %llu", &userTicks, &systemTicks);
      wchan[0] = 0;
      if (state != 'R') {
        snprintf(path, sizeof path, "/proc/%d/task/%s/wchan", (int)pid, task->d_name);
        read_text(path, wchan, sizeof wchan);
      }
      fprintf(out, " %s:%c:%s:%llu", task->d_name, state, wchan[0] ? wchan : "-", userTicks + systemTicks);
    }
    closedir(tasks);
    fputc('\n', out);
    usleep(250);
  }
  fclose(out);
  return WIFEXITED(status) ? WEXITSTATUS(status) : 1;
}

/* The floor under scrollstackd's request path: libmicrohttpd alone, run as scrollstackd runs
 * it (poll() with internal threads, a pool of THREADS, inter-thread communication, suspend and
 * resume allowed, the same connection memory), answering every request with one response
 * made once at start-up: the bytes of FILE with the header fields given after it. No routing,
 * no JSON, no Swift: what libmicrohttpd itself costs per request. Used by http_bench.py
 * --floor; build: cc -O2 -o mhd_floor mhd_floor.c -lmicrohttpd.
 *
 * usage: mhd_floor PORT THREADS CONNECTION_MEMORY FILE [NAME VALUE]...  (runs until SIGTERM) */
#include <microhttpd.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static struct MHD_Response *answer;

static enum MHD_Result handle(void *cls, struct MHD_Connection *connection, const char *url, const char *method,
                              const char *version, const char *upload_data, size_t *upload_data_size, void **state) {
    (void)cls; (void)url; (void)method; (void)version; (void)upload_data;
    if (*state == NULL) { /* the head: answer once the (empty) body is in, as scrollstackd does */
        *state = (void *)1;
        return MHD_YES;
    }
    if (*upload_data_size != 0) { *upload_data_size = 0; return MHD_YES; }
    return MHD_queue_response(connection, MHD_HTTP_OK, answer);
}

static volatile sig_atomic_t stopping;
static void on_term(int sig) { (void)sig; stopping = 1; }

int main(int argc, char **argv) {
    if (argc < 5 || (argc - 5) % 2 != 0) {
        fprintf(stderr, "usage: %s PORT THREADS CONNECTION_MEMORY FILE [NAME VALUE]...\n", argv[0]);
        return 2;
    }
    FILE *file = fopen(argv[4], "rb");
    if (!file) { perror(argv[4]); return 1; }
    static char body[1 << 20];
    size_t size = fread(body, 1, sizeof body, file);
    fclose(file);
    answer = MHD_create_response_from_buffer(size, body, MHD_RESPMEM_PERSISTENT);
    for (int i = 5; i + 1 < argc; i += 2) MHD_add_response_header(answer, argv[i], argv[i + 1]);
    unsigned int threads = (unsigned int)atoi(argv[2]);
    unsigned int flags = MHD_USE_POLL_INTERNAL_THREAD | MHD_USE_ITC | MHD_ALLOW_SUSPEND_RESUME;
    struct MHD_Daemon *daemon = MHD_start_daemon(flags, (uint16_t)atoi(argv[1]), NULL, NULL, handle, NULL,
                                                 MHD_OPTION_CONNECTION_MEMORY_LIMIT, (size_t)atol(argv[3]),
                                                 MHD_OPTION_CONNECTION_LIMIT, 1024u,
                                                 MHD_OPTION_THREAD_POOL_SIZE, threads > 1 ? threads : 1u,
                                                 MHD_OPTION_END);
    if (!daemon) { fprintf(stderr, "libmicrohttpd refused to start\n"); return 1; }
    signal(SIGTERM, on_term);
    signal(SIGINT, on_term);
    while (!stopping) pause();
    MHD_stop_daemon(daemon);
    MHD_destroy_response(answer);
    return 0;
}

/* The floor under scrollstackd's request path: libmicrohttpd alone, run as scrollstackd runs
 * it (poll() with internal threads, a pool of THREADS, inter-thread communication, suspend and
 * resume allowed, the same connection memory), answering every request with one response
 * made once at start-up: the bytes of FILE with the header fields given after it. No routing,
 * no JSON, no Swift: what libmicrohttpd itself costs per request. A request body is read
 * whole into memory of its own (as scrollstackd reads it); with --parse it is also parsed by
 * jansson with the flags scrollstackd parses bodies with, and the tree freed: what any server
 * that reads its JSON with jansson pays per write before doing anything with it. Used by
 * http_bench.py --floor; build: cc -O2 -o mhd_floor mhd_floor.c -lmicrohttpd -ljansson.
 *
 * usage: mhd_floor [--parse] PORT THREADS CONNECTION_MEMORY FILE [NAME VALUE]...  (runs until SIGTERM) */
#include <jansson.h>
#include <microhttpd.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static struct MHD_Response *answer;
static int parse_bodies;

/* A request's body as it arrives: malloc'd, grown by doubling. */
struct body { char *bytes; size_t count, capacity; };

static enum MHD_Result handle(void *cls, struct MHD_Connection *connection, const char *url, const char *method,
                              const char *version, const char *upload_data, size_t *upload_data_size, void **state) {
    (void)cls; (void)url; (void)method; (void)version;
    if (*state == NULL) { /* the head: answer once the body is in, as scrollstackd does */
        *state = calloc(1, sizeof(struct body));
        return *state ? MHD_YES : MHD_NO;
    }
    struct body *body = *state;
    if (*upload_data_size != 0) {
        if (body->count + *upload_data_size > body->capacity) {
            size_t capacity = body->capacity ? body->capacity : 256;
            while (capacity < body->count + *upload_data_size) capacity *= 2;
            char *grown = realloc(body->bytes, capacity);
            if (!grown) return MHD_NO;
            body->bytes = grown;
            body->capacity = capacity;
        }
        memcpy(body->bytes + body->count, upload_data, *upload_data_size);
        body->count += *upload_data_size;
        *upload_data_size = 0;
        return MHD_YES;
    }
    if (parse_bodies && body->count > 0) {
        json_error_t error;
        json_t *root = json_loadb(body->bytes, body->count, JSON_DECODE_ANY | JSON_REJECT_DUPLICATES | JSON_ALLOW_NUL, &error);
        if (!root) return MHD_NO;
        json_decref(root);
    }
    return MHD_queue_response(connection, MHD_HTTP_OK, answer);
}

/* Frees a request's body once libmicrohttpd is done with the request. */
static void completed(void *cls, struct MHD_Connection *connection, void **state, enum MHD_RequestTerminationCode code) {
    (void)cls; (void)connection; (void)code;
    struct body *body = *state;
    if (body) { free(body->bytes); free(body); }
    *state = NULL;
}

static volatile sig_atomic_t stopping;
static void on_term(int sig) { (void)sig; stopping = 1; }

int main(int argc, char **argv) {
    if (argc > 1 && strcmp(argv[1], "--parse") == 0) {
        parse_bodies = 1;
        argv[1] = argv[0];
        argv++;
        argc--;
    }
    if (argc < 5 || (argc - 5) % 2 != 0) {
        fprintf(stderr, "usage: %s [--parse] PORT THREADS CONNECTION_MEMORY FILE [NAME VALUE]...\n", argv[0]);
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
                                                 MHD_OPTION_NOTIFY_COMPLETED, completed, NULL,
                                                 MHD_OPTION_END);
    if (!daemon) { fprintf(stderr, "libmicrohttpd refused to start\n"); return 1; }
    signal(SIGTERM, on_term);
    signal(SIGINT, on_term);
    while (!stopping) pause();
    MHD_stop_daemon(daemon);
    MHD_destroy_response(answer);
    return 0;
}

#ifndef CMICROHTTPD_SHIM_H
#define CMICROHTTPD_SHIM_H
#include <stdarg.h>
#include <stdint.h>
#include <sys/types.h>
#include <sys/select.h>
#include <sys/socket.h>
/* epoll and eventfd: MicroHTTP's stream monitor (Glibc does not export them). */
#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <microhttpd.h>

/* MHD_get_connection_info is variadic, so Swift cannot call it: these ask for one field each. */

/* The size of the request head (request line, header lines, blank line) in libmicrohttpd's
   read buffer, starting at the method; 0 before the headers are complete. */
static inline size_t cmhd_request_head_size(struct MHD_Connection *connection) {
    const union MHD_ConnectionInfo *info = MHD_get_connection_info(connection, MHD_CONNECTION_INFO_REQUEST_HEADER_SIZE);
    return info ? info->header_size : 0;
}

/* The connection's socket, or -1. */
static inline int cmhd_connection_socket(struct MHD_Connection *connection) {
    const union MHD_ConnectionInfo *info = MHD_get_connection_info(connection, MHD_CONNECTION_INFO_CONNECTION_FD);
    return info ? info->connect_fd : -1;
}

/* The connection's socket context (what the connection callback stored), or NULL. */
static inline void *cmhd_connection_socket_context(struct MHD_Connection *connection) {
    const union MHD_ConnectionInfo *info = MHD_get_connection_info(connection, MHD_CONNECTION_INFO_SOCKET_CONTEXT);
    return info ? info->socket_context : NULL;
}

/* The status of the response queued on the connection, or 0 while none is. */
static inline unsigned int cmhd_response_status(struct MHD_Connection *connection) {
    const union MHD_ConnectionInfo *info = MHD_get_connection_info(connection, MHD_CONNECTION_INFO_HTTP_STATUS);
    return info ? info->http_status : 0;
}
#endif

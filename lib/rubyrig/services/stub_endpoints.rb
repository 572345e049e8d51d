# Owns the stub endpoints an uptime-check workload probes: makes a fresh self-signed certificate for
# 127.0.0.1, starts the stub server process (stub_server.rb) under rubyrig's own Ruby, waits until every
# port accepts, hands the targets to the jobs through the environment, and stops it with its owner.
require "openssl"
require "json"
require "socket"
require "rbconfig"
require "fileutils"

module Rubyrig
  module Services
    class StubEndpoints
      SERVER = File.expand_path("stub_server.rb", __dir__)

      # Raised when the stub server does not come up.
      class Failure < Error; end

      attr_reader :ports, :cert_path

      def initialize(dir:, ready_timeout_s: 15)
        @dir = dir
        @ready_timeout_s = ready_timeout_s
      end

      def start
        FileUtils.mkdir_p(@dir)
        @cert_path, key_path = write_certificate
        ports_path = File.join(@dir, "ports.json")
        @child = Processes::Child.spawn([RbConfig.ruby, SERVER, @cert_path, key_path, ports_path],
          env: Processes::InheritedEnv.withheld.merge("RUBYOPT" => nil), out: File.join(@dir, "stubs.log"), err: [:child, :out])
        @ports = wait_for_ports(ports_path)
        self
      end

      # What a job needs to reach the stubs and to verify the HTTPS certificate.
      def env
        {
          "RUBYRIG_STUB_HTTP_PORT" => @ports.fetch("http").to_s,
          "RUBYRIG_STUB_HTTPS_PORT" => @ports.fetch("https").to_s,
          "RUBYRIG_STUB_TCP_PORT" => @ports.fetch("tcp").to_s,
          "RUBYRIG_STUB_CA_FILE" => @cert_path
        }
      end

      def pid = @child&.pid

      def alive? = !!@child&.alive?

      # Stops the stub server; returns how it ended (Child::Exit), or nil when it never started.
      def stop
        @child&.stop(grace_s: 2.0)
        @child&.wait
      end

      # The same as stop, for ensure blocks: safe to call twice, and when start failed half-way.
      def abort = stop

      private

      # An ECDSA P-256 key and a certificate for 127.0.0.1 and localhost, valid for one day.
      def write_certificate
        key = OpenSSL::PKey::EC.generate("prime256v1")
        cert = OpenSSL::X509::Certificate.new
        cert.version = 2
        cert.serial = OpenSSL::BN.rand(64)
        cert.subject = cert.issuer = OpenSSL::X509::Name.parse("/CN=127.0.0.1")
        cert.public_key = key
        cert.not_before = Time.now - 60
        cert.not_after = Time.now + 86_400
        extensions = OpenSSL::X509::ExtensionFactory.new(cert, cert)
        cert.add_extension(extensions.create_extension("basicConstraints", "CA:TRUE", true))
        cert.add_extension(extensions.create_extension("keyUsage", "digitalSignature,keyCertSign", true))
        cert.add_extension(extensions.create_extension("subjectAltName", "IP:127.0.0.1,DNS:localhost"))
        cert.sign(key, OpenSSL::Digest.new("SHA256"))
        cert_path = File.join(@dir, "stub-cert.pem")
        key_path = File.join(@dir, "stub-key.pem")
        File.write(cert_path, cert.to_pem)
        File.open(key_path, "w", 0o600) { |f| f.write(key.private_to_pem) }
        [cert_path, key_path]
      end

      def wait_for_ports(path)
        deadline = now + @ready_timeout_s
        until now > deadline
          raise Failure, "the stub server exited: #{log_tail}" unless @child.alive?
          if File.exist?(path)
            ports = Processes::TextFile.json(path)
            return ports if ports.values.all? { |port| accepts?(port) }
          end
          sleep 0.01
        end
        raise Failure, "the stub server did not open its ports within #{@ready_timeout_s} s: #{log_tail}"
      end

      def accepts?(port)
        Socket.tcp("127.0.0.1", port, connect_timeout: 1).close
        true
      rescue SystemCallError # not accepting yet
        false
      end

      def log_tail
        Processes::TextFile.tail(File.join(@dir, "stubs.log"), lines: 2, separator: " ") || "no output"
      end

      def now = Process.clock_gettime(Process::CLOCK_MONOTONIC)
    end
  end
end

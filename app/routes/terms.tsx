export default function Terms() {
  return (
    <main>
      <h1>Пользовательское соглашение</h1>
    </main>
  );
}

import { BrowserRouter, Route, Routes } from 'react-router';
import { NotFoundPage } from '../components/not-found-page.tsx';
import { AppProviders } from './providers.tsx';

export function App() {
  return (
    <AppProviders>
      <BrowserRouter>
        <Routes>
          <Route path="*" element={<NotFoundPage />} />
        </Routes>
      </BrowserRouter>
    </AppProviders>
  );
}
